// Export: PNG/SVG/PDF/text of the expected size and format, from the GUI and from
// `tilescope-cli render`; `tilescope --screenshot` writes a PNG of the main window.
#include "test_gui_common.h"

#include "documentmodel.h"
#include "gridview.h"
#include "mainwindow.h"

#include "tilescope/mapping.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QXmlStreamReader>
#include <QtTest>

using namespace tsw;

namespace {
QString out(const QString& name) {
    return guiTestDir().path() + QLatin1Char('/') + name;
}
QByteArray head(const QString& path, int n) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.read(n);
}
} // namespace

class TestGuiExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void exportFromWindow() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        GridRenderer::Style s;
        s.legendInScene = true;
        const QSize expected = GridRenderer(w.gridView()->model(), s).sceneSize().toSize();
        QVERIFY(expected.width() > 32 * 48 && expected.height() > 32 * 48);

        QVERIFY(w.exportView(out("a.png")));
        QImage img(out("a.png"));
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), expected);
        QVERIFY(w.exportView(out("b.png"), 0.5));
        QCOMPARE(QImage(out("b.png")).width(), int(std::ceil(expected.width() * 0.5)));

        QVERIFY(w.exportView(out("a.svg")));
        QFile svg(out("a.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svg);
        bool sawSvg = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("svg")) {
                sawSvg = true;
                QCOMPARE(xml.attributes().value(QLatin1String("viewBox")).toString(),
                         QStringLiteral("0 0 %1 %2").arg(expected.width()).arg(expected.height()));
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(sawSvg);

        QVERIFY(w.exportView(out("a.pdf")));
        QCOMPARE(head(out("a.pdf"), 4), QByteArray("%PDF"));
        QVERIFY(QFileInfo(out("a.pdf")).size() > 1000);

        QVERIFY(w.exportView(out("a.txt")));
        const QByteArray txt = head(out("a.txt"), 1 << 20);
        QVERIFY(txt.contains("T0 L0"));
        QCOMPARE(txt.count('\n'), 2 + 32);

        QVERIFY(!w.exportView(out("a.xyz")));
        QVERIFY(w.lastError().contains(QStringLiteral("unknown export format")));
    }

    void cliRender() {
        QProcess p;
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("make_gemm_c_fragment((32, 32), 128)"),
                 QStringLiteral("-o"), out("cli.png"), QStringLiteral("--cell"),
                 QStringLiteral("20")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out("cli.png"));
        QVERIFY(!img.isNull());
        QVERIFY(img.width() > 32 * 20 && img.width() < 32 * 20 + 200);

        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("T.Layout([4, 4], lambda i, j: (j, i))"),
                 QStringLiteral("-o"), out("cli.svg"), QStringLiteral("--view"),
                 QStringLiteral("output")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(head(out("cli.svg"), 4096).contains("<svg"));

        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"),
                 QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"),
                 QStringLiteral("-o"), out("cli.pdf"), QStringLiteral("--color"),
                 QStringLiteral("warp")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(head(out("cli.pdf"), 4), QByteArray("%PDF"));

        // Bad input: exit code 2 and a message naming the problem.
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("T.Fragment([4, 4], "),
                 QStringLiteral("-o"), out("bad.png")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("error"));
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("make_gemm_fragment_8x8()"),
                 QStringLiteral("-o"), out("bad.gif")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"),
                 QStringLiteral("make_linear_layout((4096, 2048), \"float16\")"),
                 QStringLiteral("-o"), out("big.png")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("too large"));
    }

    void screenshot() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(TILESCOPE_GUI_BIN),
                {QStringLiteral("--screenshot"), out("shot.png"), QStringLiteral("--size"),
                 QStringLiteral("1200x800"),
                 QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out("shot.png"));
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(1200, 800));
    }
};

QTEST_MAIN(TestGuiExport)
#include "test_gui_export.moc"
