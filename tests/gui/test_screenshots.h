// SPDX-License-Identifier: Apache-2.0
// Screenshots taken by the panel tests: into docs/screenshots with TILESCOPE_SCREENSHOTS=1 (to
// refresh the README's pictures), else into the test output directory.
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QString>
#include <QWidget>
#include <QtTest>

inline QString shotDir() {
    if (qEnvironmentVariableIntValue("TILESCOPE_SCREENSHOTS"))
        return QStringLiteral(TILESCOPE_SOURCE_DIR "/docs/screenshots");
    QString d = qEnvironmentVariable("TILESCOPE_TEST_OUT", QDir::tempPath());
    QDir().mkpath(d);
    return d;
}

// Shows `w` at `size` and saves its picture as `name` (a QVERIFY: call it from a test function).
inline void shoot(QWidget* w, const QString& name, QSize size) {
    w->resize(size);
    w->show();
    QCoreApplication::processEvents();
    QTest::qWait(50);
    QCoreApplication::processEvents();
    QVERIFY(w->grab().save(shotDir() + QLatin1Char('/') + name));
}
