// SPDX-License-Identifier: Apache-2.0
// render_icon SVG OUTDIR SIZE...: draws the app icon's SVG at each SIZE into
// OUTDIR/SIZExSIZE/apps/<svg base name>.png (the hicolor theme layout), at build time, so that the
// PNGs desktops want are never committed binaries that drift from the SVG.
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 4) {
        std::fprintf(stderr, "usage: render_icon SVG OUTDIR SIZE...\n");
        return 2;
    }
    QSvgRenderer svg(args[1]);
    if (!svg.isValid()) {
        std::fprintf(stderr, "render_icon: cannot read SVG %s\n", qPrintable(args[1]));
        return 2;
    }
    const QString base = QFileInfo(args[1]).completeBaseName();
    for (int k = 3; k < args.size(); ++k) {
        bool ok = false;
        const int n = args[k].toInt(&ok);
        if (!ok || n < 8 || n > 4096) {
            std::fprintf(stderr, "render_icon: bad size '%s'\n", qPrintable(args[k]));
            return 2;
        }
        QImage img(n, n, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::transparent);
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        svg.render(&p);
        p.end();
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(args[2]).arg(n);
        const QString file = dir + QLatin1Char('/') + base + QStringLiteral(".png");
        if (!QDir().mkpath(dir) || !img.save(file)) {
            std::fprintf(stderr, "render_icon: cannot write %s\n", qPrintable(file));
            return 1;
        }
    }
    return 0;
}
