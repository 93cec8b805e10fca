// SPDX-License-Identifier: Apache-2.0
// Single instance for real: a first `tilescope` process listens on a private socket
// (TILESCOPE_SOCKET); a second `tilescope FILE` or `--text TEXT` hands its request to the first
// and exits, which the first shows (checked through the protocol's status request); --new-window
// starts a second window instead; a missing file comes back as the second process's error.
// `tilescope --trace LOG --follow` (the request the Python bridge's trace() sends) shows the log in
// the first window's Trace panel and keeps reading it as it grows.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestSingleInstance : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QString socket_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        e.insert(QStringLiteral("TILESCOPE_SOCKET"), socket_);
        e.insert(QStringLiteral("TILESCOPE_NO_DIALOGS"), QStringLiteral("1"));
        e.insert(QStringLiteral("TILESCOPE_RECOVERY_DIR"), tmp_.path() + QStringLiteral("/rec"));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp_.path() + QStringLiteral("/config"));
        e.insert(QStringLiteral("XDG_DATA_HOME"), tmp_.path() + QStringLiteral("/data"));
        return e;
    }

    // What the running instance shows, asked over the socket as the Python bridge does.
    QJsonObject status() const { return request(QJsonObject{{QStringLiteral("status"), true}}); }

    QJsonObject request(const QJsonObject& r) const {
        QLocalSocket s;
        s.connectToServer(socket_);
        if (!s.waitForConnected(2000)) return {};
        s.write(QJsonDocument(r).toJson(QJsonDocument::Compact) + '\n');
        QByteArray line;
        while (!line.contains('\n') && s.waitForReadyRead(5000))
            line += s.readAll();
        return QJsonDocument::fromJson(line).object();
    }

    // Runs a second `tilescope` to completion; returns its exit code, stdout+stderr in *out.
    int runSecond(const QStringList& args, QByteArray* out) const {
        QProcess p;
        p.setProcessEnvironment(env());
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(TILESCOPE_GUI_BIN), args);
        if (!p.waitForFinished(20000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        *out = p.readAll();
        return p.exitCode();
    }

private slots:
    // A file handed to a window whose user has unsaved edits does not replace them: the window
    // asks to save first, so its project stays until the user answers.
    void aHandedFileWaitsForTheUsersUnsavedEdits() {
        QVERIFY(tmp_.isValid());
        socket_ = tmp_.path() + QStringLiteral("/edits.socket");
        const QString src = QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/");
        const QString mine = tmp_.path() + QStringLiteral("/mine.tilescope.json");
        const QString other = tmp_.path() + QStringLiteral("/other.tilescope.json");
        QVERIFY(QFile::copy(src + QStringLiteral("transpose.tilescope.json"), mine));
        QVERIFY(QFile::copy(src + QStringLiteral("swizzles.tilescope.json"), other));
        QProcessEnvironment e = env();
        e.insert(QStringLiteral("TILESCOPE_TEST_EDIT"),
                 QStringLiteral("T.Layout([8], lambda i: i)"));
        QProcess a;
        a.setProcessEnvironment(e);
        a.setProcessChannelMode(QProcess::ForwardedChannels);
        a.start(QStringLiteral(TILESCOPE_GUI_BIN), {mine});
        QVERIFY(a.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(status().value(QStringLiteral("file")).toString(), mine, 20000);
        QByteArray out;
        QCOMPARE(runSecond({other}, &out), 0);
        QTest::qWait(1000);
        QCOMPARE(status().value(QStringLiteral("file")).toString(), mine);
        a.kill();
        a.waitForFinished(5000);
        QFile::remove(socket_);
    }

    void handsRequestsToTheRunningWindow() {
        QVERIFY(tmp_.isValid());
        socket_ = tmp_.path() + QStringLiteral("/tilescope.socket");
        const QString src = QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/");
        const QString first = tmp_.path() + QStringLiteral("/first.tilescope.json");
        const QString second = tmp_.path() + QStringLiteral("/second.tilescope.json");
        QVERIFY(QFile::copy(src + QStringLiteral("transpose.tilescope.json"), first));
        QVERIFY(QFile::copy(src + QStringLiteral("swizzles.tilescope.json"), second));

        QProcess a;
        a.setProcessEnvironment(env());
        a.setProcessChannelMode(QProcess::ForwardedChannels);
        a.start(QStringLiteral(TILESCOPE_GUI_BIN), {first});
        QVERIFY(a.waitForStarted());
        QJsonObject st;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 20000 && (st = status()).isEmpty())
            QTest::qWait(100);
        QVERIFY2(!st.isEmpty(), "the first tilescope never answered on its socket");
        QCOMPARE(st.value(QStringLiteral("file")).toString(), first);

        // A file from a second process: opened in the first window.
        QByteArray out;
        QCOMPARE(runSecond({second}, &out), 0);
        QVERIFY2(out.contains("handed to the running window"), out.constData());
        st = status();
        QCOMPARE(st.value(QStringLiteral("file")).toString(), second);
        const int before = st.value(QStringLiteral("layouts")).toArray().size();

        // Layout text from a second process: added to the first window and made active.
        const QString text = QStringLiteral("T.Layout([4, 8], lambda i, j: (j, i))");
        QCOMPARE(runSecond({QStringLiteral("--text"), text, QStringLiteral("--layout-name"),
                            QStringLiteral("handed text")},
                           &out),
                 0);
        QVERIFY2(out.contains("handed to the running window"), out.constData());
        st = status();
        const QJsonArray names = st.value(QStringLiteral("layouts")).toArray();
        QCOMPARE(names.size(), before + 1);
        QCOMPARE(names.at(st.value(QStringLiteral("active")).toInt()).toString(),
                 QStringLiteral("handed text"));
        QCOMPARE(st.value(QStringLiteral("text")).toString(), text);

        // A missing file: the second process says so and fails; the first keeps its project.
        const QString missing = tmp_.path() + QStringLiteral("/missing.tilescope.json");
        QCOMPARE(runSecond({missing}, &out), 2);
        QVERIFY2(out.contains("no such file"), out.constData());
        QCOMPARE(status().value(QStringLiteral("file")).toString(), second);

        // --new-window: a process of its own that keeps running, not a hand-over.
        QProcess b;
        b.setProcessEnvironment(env());
        b.start(QStringLiteral(TILESCOPE_GUI_BIN), {QStringLiteral("--new-window"), first});
        QVERIFY(b.waitForStarted());
        QVERIFY2(!b.waitForFinished(2500), b.readAll().constData());
        QCOMPARE(status().value(QStringLiteral("file")).toString(), second);
        b.kill();
        b.waitForFinished();

        // A log for the Trace panel from a second process, followed: what is appended to it after
        // the hand-over shows up in the first window while the file grows.
        const QString log = tmp_.path() + QStringLiteral("/live.log");
        QFile sample(QStringLiteral(TILESCOPE_SOURCE_DIR "/tests/data/logs/flash_attn_fwd.log"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const QByteArray all = sample.readAll();
        const int half = all.indexOf("\nacc_o inferred layout:") + 1;
        QVERIFY(half > 0);
        QFile live(log);
        QVERIFY(live.open(QIODevice::WriteOnly));
        live.write(all.left(half));
        live.flush();
        QCOMPARE(runSecond({QStringLiteral("--trace"), log, QStringLiteral("--follow")}, &out), 0);
        QVERIFY2(out.contains("handed to the running window"), out.constData());
        auto trace = [&] { return status().value(QStringLiteral("trace")).toObject(); };
        auto events = [&] { return trace().value(QStringLiteral("events")).toInt(); };
        QTRY_VERIFY_WITH_TIMEOUT(events() > 0, 10000);
        QCOMPARE(trace().value(QStringLiteral("source")).toString(), log);
        QVERIFY(trace().value(QStringLiteral("following")).toBool());
        QVERIFY(trace().value(QStringLiteral("visible")).toBool());
        const int early = events();
        live.write(all.mid(half));
        live.close();
        QTRY_VERIFY_WITH_TIMEOUT(events() > early, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(events(), 8, 10000); // the 8 events of flash_attn_fwd.log
        QVERIFY(early < 8);

        // Without --follow the log is read once; a missing log is the second process's error.
        QCOMPARE(runSecond({QStringLiteral("--trace"), log}, &out), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            !trace().value(QStringLiteral("following")).toBool() && events() == 8, 10000);
        QCOMPARE(
            runSecond({QStringLiteral("--trace"), tmp_.path() + QStringLiteral("/none.log")}, &out),
            2);
        QVERIFY2(out.contains("no such log"), out.constData());
        QCOMPARE(
            request({{QStringLiteral("bogus"), true}}).value(QStringLiteral("error")).toString(),
            QStringLiteral("unknown request (expected open, text, trace, status or raise)"));

        // A layout handed in (the text above, as the Python bridge's show() sends it) is not
        // the user's edit (DocumentModel::receiveLayout): a file opens at once, with nothing to
        // ask about. An edit of the user's makes it ask first (below).
        QCOMPARE(runSecond({first}, &out), 0);
        QTRY_COMPARE_WITH_TIMEOUT(status().value(QStringLiteral("file")).toString(), first, 10000);

        a.terminate();
        if (!a.waitForFinished(5000)) {
            a.kill();
            a.waitForFinished();
        }
    }
};

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "test_single_instance.moc"
