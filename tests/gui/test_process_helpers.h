// SPDX-License-Identifier: Apache-2.0
// Helpers for the tests that drive the real `tilescope` binary as a separate process (crash
// recovery, its session lock, SIGKILL during writes).
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QtTest>

// The whole file, or nothing when it cannot be read.
inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Waits (processing events) until pred() holds or ms elapse.
template <class P> bool waitFor(P pred, int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        if (pred()) return true;
        QTest::qWait(100);
    }
    return pred();
}
