// SPDX-License-Identifier: Apache-2.0
// Saves, autosaves and exports survive SIGKILL at any point: the real `tilescope` binary runs a
// loop that edits, saves the project (about 300 KB a write), autosaves and exports a PNG, and is
// killed again and again: in turn just as a save, an autosave or an export starts (the loop
// announces each), and after a seeded random delay. After every kill the project file must be a
// whole version (the original or one of the loop's saves, never torn), every autosave left a
// whole document that recovery offers for this project, and the export absent or a complete
// PNG. The loop's last words tell which write each kill interrupted; every kind must have been
// interrupted at least once.
#include "document/documentmodel.h"
#include "document/recovery.h"
#include "test_process_helpers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <csignal>
#include <map>
#include <sys/types.h>

using namespace tsw;

namespace {

// The active layout's text of a project file, or a null string when the file is not a whole
// project.
QString activeText(const QByteArray& json) {
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("tilescope-project"))
        return {};
    const QJsonArray layouts = o.value(QStringLiteral("layouts")).toArray();
    const int active = o.value(QStringLiteral("active")).toInt();
    if (active < 0 || active >= layouts.size()) return {};
    return layouts[active].toObject().value(QStringLiteral("text")).toString();
}

// What the loop's save number k writes (tilescope's main.cpp, TILESCOPE_TEST_SAVE_LOOP).
QString loopText(int k) {
    QString text = QStringLiteral("T.Layout([4, 8], lambda i, j: (j, i))  # fault-%1").arg(k);
    const QString line = QStringLiteral("\n# ") + QString(96, QLatin1Char('0' + k % 10));
    for (int n = 0; n < 3000; ++n)
        text += line;
    return text;
}

// Whether `text` is exactly one of the loop's versions (an autosave may add trailing spaces).
bool isLoopVersion(const QString& text, int* k) {
    static const QRegularExpression re(QStringLiteral("# fault-(\\d+)\n"));
    const auto m = re.match(text);
    if (!m.hasMatch()) return false;
    *k = m.captured(1).toInt();
    QString t = text;
    while (t.endsWith(QLatin1Char(' ')))
        t.chop(1);
    return t == loopText(*k);
}

} // namespace

class TestFaultAtomicity : public QObject {
    Q_OBJECT

private slots:
    void killDuringWrites() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString recoveryDir = tmp.path() + QStringLiteral("/recovery");
        const QString project = tmp.path() + QStringLiteral("/fault.tilescope.json");
        const QString png = tmp.path() + QStringLiteral("/fault.png");
        QVERIFY(QFile::copy(QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"),
                            project));
        QFile::setPermissions(project, QFile::ReadOwner | QFile::WriteOwner);
        // This process reads the recovery directory too (RecoveryManager::pending below): the
        // killed sessions' one, not this test binary's default.
        qputenv("TILESCOPE_RECOVERY_DIR", recoveryDir.toLocal8Bit());
        const QString original = activeText(readAll(project));
        QVERIFY(!original.isEmpty());

        // TILESCOPE_FAULT_ROUNDS: the long form of this test (docs/hardening.md).
        const int rounds = qEnvironmentVariableIntValue("TILESCOPE_FAULT_ROUNDS") > 0
                               ? qEnvironmentVariableIntValue("TILESCOPE_FAULT_ROUNDS")
                               : 8;
        QRandomGenerator rng(20261201);
        int saves = 0, autosaves = 0, exports = 0, loopVersions = 0, recoveries = 0, pngs = 0;
        // Kills that landed inside a save, an autosave, an export (announced, not finished).
        std::map<QByteArray, int> interrupted;
        static const QByteArray kWrites[] = {"saving", "autosaving", "exporting"};
        // A kill aimed at a write can come after it ended on a loaded machine (the announcement
        // is read late): a kind of write no kill has landed in yet gets further aimed rounds, up
        // to 16 more, rather than the test depending on the machine's load.
        auto missing = [&]() -> int {
            for (int w = 0; w < 3; ++w)
                if (interrupted[kWrites[w]] == 0) return w;
            return -1;
        };
        // Likewise for the other things the rounds must have seen at least once (a recovered
        // autosave needs a kill after an autosave and before the next save, which load can
        // make rare in 8 rounds); an extra round aims at a missing write, else at an autosave.
        auto lacking = [&] {
            return missing() >= 0 || saves < rounds || autosaves == 0 || exports == 0 ||
                   loopVersions == 0 || recoveries == 0 || pngs == 0;
        };
        int played = 0;
        for (int round = 0; round < rounds || (lacking() && round < rounds + 16); ++round) {
            ++played;
            const int aim = round < rounds ? round % 4 : missing() >= 0 ? missing() : 1;
            QProcess app;
            QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
            e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            e.insert(QStringLiteral("TILESCOPE_NO_DIALOGS"), QStringLiteral("1"));
            e.insert(QStringLiteral("TILESCOPE_RECOVERY_DIR"), recoveryDir);
            e.insert(QStringLiteral("TILESCOPE_RECOVERY_ANSWER"), QStringLiteral("none"));
            e.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp.path() + QStringLiteral("/config"));
            e.insert(QStringLiteral("XDG_DATA_HOME"), tmp.path() + QStringLiteral("/data"));
            e.insert(QStringLiteral("TILESCOPE_TEST_SAVE_LOOP"), png);
            app.setProcessEnvironment(e);
            app.setProcessChannelMode(QProcess::MergedChannels);
            app.start(QStringLiteral(TILESCOPE_GUI_BIN), {project});
            QVERIFY2(app.waitForStarted(20000), qPrintable(app.errorString()));
            QByteArray out;
            QElapsedTimer t;
            t.start();
            while (!out.contains("tilescope: saved") && t.elapsed() < 60000) {
                app.waitForReadyRead(100);
                out += app.readAll();
            }
            QVERIFY2(out.contains("tilescope: saved"), out.constData());
            // Rounds 0-2 of every 4 aim at a write: the kill follows the announcement of the
            // next save, autosave or export within a few milliseconds. Round 3 kills after a
            // random delay, wherever the loop is.
            if (aim < 3) {
                const QByteArray marker = "tilescope: " + kWrites[aim] + ' ';
                const qsizetype seen = out.count(marker);
                t.restart();
                while (out.count(marker) == seen && t.elapsed() < 60000) {
                    app.waitForReadyRead(1);
                    out += app.readAll();
                }
                QVERIFY2(out.count(marker) > seen, out.right(2000).constData());
                QThread::usleep(rng.bounded(0, 8000));
            } else {
                QTest::qWait(int(rng.bounded(50, 1500)));
            }
            ::kill(pid_t(app.processId()), SIGKILL);
            QVERIFY(app.waitForFinished(20000));
            out += app.readAll();
            saves += int(out.count("tilescope: saved"));
            autosaves += int(out.count("tilescope: autosaved"));
            exports += int(out.count("tilescope: exported"));
            // The loop's last line: an announcement means the kill landed inside that write.
            const QList<QByteArray> lines = out.trimmed().split('\n');
            for (const QByteArray& w : kWrites)
                if (lines.last().startsWith("tilescope: " + w + ' ')) ++interrupted[w];

            // The project is one whole version.
            const QString text = activeText(readAll(project));
            int k = 0;
            QVERIFY2(text == original || isLoopVersion(text, &k),
                     qPrintable(QStringLiteral("round %1: torn project file").arg(round)));
            if (text != original) ++loopVersions;

            // Every autosave left is a whole document that recovery offers, for this project,
            // and reads back.
            const QList<RecoveryEntry> pending = RecoveryManager::pending();
            for (const RecoveryEntry& r : pending) {
                QCOMPARE(r.original, project);
                DocumentModel doc;
                QString error;
                QVERIFY2(doc.load(r.file, &error),
                         qPrintable(QStringLiteral("round %1: %2").arg(round).arg(error)));
                int rk = 0;
                const QString rt = QString::fromStdString(doc.layout(doc.active()).text);
                QVERIFY2(
                    rt == original || isLoopVersion(rt, &rk),
                    qPrintable(QStringLiteral("round %1: autosave holds another text").arg(round)));
                ++recoveries;
                RecoveryManager::discard(r);
            }

            // No half-written temporary is left beside the project or the export.
            QStringList left = QDir(tmp.path()).entryList(QDir::Files);
            left.removeAll(QFileInfo(project).fileName());
            left.removeAll(QFileInfo(png).fileName());
            QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("round %1: left behind: %2")
                                                    .arg(round)
                                                    .arg(left.join(QLatin1Char(' ')))));

            // The export is absent or a complete image.
            if (QFile::exists(png)) {
                QImageReader reader(png);
                const QImage img = reader.read();
                QVERIFY2(!img.isNull(), qPrintable(QStringLiteral("round %1: torn PNG: %2")
                                                       .arg(round)
                                                       .arg(reader.errorString())));
                ++pngs;
            }
        }
        // Nothing of the killed sessions is left behind once recovery has been dealt with.
        QVERIFY(RecoveryManager::pending().isEmpty());
        QCOMPARE(QDir(recoveryDir).entryList(QDir::Files | QDir::NoDotAndDotDot).join(' '),
                 QString());
        qInfo("%d rounds: %d saves, %d autosaves, %d exports before the kills; kills inside a "
              "save %d, an autosave %d, an export %d; project changed %d times; %d autosaves "
              "recovered; %d PNGs whole",
              played, saves, autosaves, exports, interrupted["saving"], interrupted["autosaving"],
              interrupted["exporting"], loopVersions, recoveries, pngs);
        // The kills landed while the loop was writing, not before it started.
        QVERIFY(saves >= rounds);
        QVERIFY(autosaves > 0);
        QVERIFY(exports > 0);
        QVERIFY(loopVersions > 0);
        QVERIFY(recoveries > 0);
        QVERIFY(pngs > 0);
        for (const QByteArray& w : kWrites)
            QVERIFY2(interrupted[w] > 0, "no kill landed inside " + w);
    }
};

QTEST_GUILESS_MAIN(TestFaultAtomicity)
#include "test_fault_atomicity.moc"
