// SPDX-License-Identifier: Apache-2.0
// Documents: save/load round trip (atomic), broken/foreign/newer JSON gives a clear error with
// the JSON path and changes nothing, autosave and recovery, every sample opens and evaluates.
#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "document/recovery.h"
#include "editor/evaluator.h"
#include "grid/gridview.h"
#include "window/mainwindow.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace tsw;

namespace {
QString writeFile(const QString& name, const QByteArray& data) {
    const QString p = guiTestDir().path() + QLatin1Char('/') + name;
    QFile f(p);
    f.open(QIODevice::WriteOnly);
    f.write(data);
    return p;
}
} // namespace

class TestGuiDocuments : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void saveLoadRoundTrip() {
        MainWindow w;
        w.setConfirmOnClose(false);
        DocumentModel* d = w.document();
        d->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        d->addLayout({"swizzle",
                      "make_full_bank_swizzled_layout((8, 64), \"float16\")",
                      {"output", "thread", 1.5},
                      "a note"});
        w.setColorMode(ColorMode::Slot);
        QVERIFY(d->isDirty());
        const QString path = guiTestDir().path() + QStringLiteral("/round.tilescope.json");
        QVERIFY(w.saveFile(path));
        QVERIFY(!d->isDirty());
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("round.tilescope.json")));
        QVERIFY(w.recentFiles().contains(QFileInfo(path).absoluteFilePath()));
        // No temp files left behind by the atomic save.
        QCOMPARE(QDir(guiTestDir().path()).entryList({QStringLiteral("round*")}).size(), 1);

        MainWindow w2;
        w2.setConfirmOnClose(false);
        QVERIFY(w2.openFile(path));
        QCOMPARE(w2.document()->document(), d->document());
        QCOMPARE(w2.document()->filePath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(!w2.document()->isDirty());
        QTRY_COMPARE(w2.gridView()->model().kind(), GridModel::Kind::LayoutOutput);
    }

    void brokenJsonGivesErrorAndKeepsDocument_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expect");
        QTest::newRow("not json") << QByteArray("{\"format\": \"tilescope-project\", oops")
                                  << QString();
        QTest::newRow("foreign") << QByteArray("{\"name\": \"package.json\", \"version\": \"1.0\"}")
                                 << QStringLiteral("format");
        QTest::newRow("newer")
            << QByteArray("{\"format\":\"tilescope-project\",\"version\":99,\"active\":0,"
                          "\"layouts\":[]}")
            << QStringLiteral("/version");
        QTest::newRow("bad field")
            << QByteArray("{\"format\":\"tilescope-project\",\"version\":1,\"active\":0,"
                          "\"layouts\":[{\"name\":\"a\",\"text\":5}]}")
            << QStringLiteral("/layouts/0/text");
    }
    void brokenJsonGivesErrorAndKeepsDocument() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expect);
        MainWindow w;
        w.setConfirmOnClose(false);
        w.document()->setText(0, QStringLiteral("make_gemm_fragment_8x8()"));
        const ts::Document before = w.document()->document();
        const QString p = writeFile(QStringLiteral("broken.json"), json);
        QVERIFY(!w.openFile(p));
        QVERIFY(!w.lastError().isEmpty());
        if (!expect.isEmpty()) QVERIFY2(w.lastError().contains(expect), qPrintable(w.lastError()));
        QCOMPARE(w.document()->document(), before); // nothing lost
        QVERIFY(w.document()->isDirty());
        QCOMPARE(w.document()->undoStack()->count(), 1);
    }

    void autosaveAndRecovery() {
        auto* w = new MainWindow;
        w->setConfirmOnClose(false);
        w->document()->setText(0, QStringLiteral("make_gemm_c_fragment((64, 64), 128)"));
        QVERIFY(w->recovery()->autosaveNow());
        const QString file = w->recovery()->recoveryFile();
        QVERIFY(QFile::exists(file));
        QVERIFY(file.startsWith(guiTestDir().path()));
        QVERIFY(!w->recovery()->autosaveNow()); // unchanged: not rewritten
        const ts::Document lost = w->document()->document();
        delete w; // a crash: the recovery file stays
        QVERIFY(QFile::exists(file));

        MainWindow w2;
        w2.setConfirmOnClose(false);
        const auto pending = RecoveryManager::pending();
        QCOMPARE(pending.size(), 1);
        QVERIFY(w2.recoverFrom(pending.first()));
        QCOMPARE(w2.document()->document(), lost);
        QVERIFY(w2.document()->isDirty());
        QVERIFY(!QFile::exists(file)); // consumed
        // Saving clears the session's recovery file.
        QVERIFY(QFile::exists(w2.recovery()->recoveryFile()));
        QVERIFY(w2.saveFile(guiTestDir().path() + QStringLiteral("/recovered.tilescope.json")));
        QVERIFY(!QFile::exists(w2.recovery()->recoveryFile()));
        QVERIFY(RecoveryManager::pending().isEmpty());
    }

    void everySampleEvaluates() {
        const QDir dir(QStringLiteral(TILESCOPE_SOURCE_DIR "/samples"));
        const QStringList files = dir.entryList({QStringLiteral("*.tilescope.json")});
        QVERIFY(files.contains(QStringLiteral("default.tilescope.json")));
        QVERIFY(files.size() >= 7);
        for (const QString& f : files) {
            DocumentModel d;
            QString err;
            QVERIFY2(d.load(dir.filePath(f), &err), qPrintable(err));
            for (int i = 0; i < d.count(); ++i) {
                const auto& l = d.layout(i);
                const EvalResult r = LayoutEvaluator::compute(QString::fromStdString(l.text),
                                                              viewModeFromString(l.view.view),
                                                              colorModeFromString(l.view.color));
                QVERIFY2(r.ok,
                         qPrintable(f + QStringLiteral(": ") + QString::fromStdString(l.name) +
                                    QStringLiteral(": ") + r.error));
            }
        }
    }
};

QTEST_MAIN(TestGuiDocuments)
#include "test_gui_documents.moc"
