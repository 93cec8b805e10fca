// SPDX-License-Identifier: Apache-2.0
// QtTest (offscreen) for the storage-and-layout lesson (samples/lesson_storage_layout): it is
// listed in File > Samples, and every number in a step's caption is what the app shows for that
// step: a fragment's threads, values and replicas, a bank step's wavefronts (and the row-major
// tile's, applied in the same panel), the padded tile's size from the grid's title, the nZ
// fractal's storage, and the sample log the inference step points to.
#include "test_gui_common.h"
#include "window_fixture.h"

#include "banks/bank_docks.h"
#include "banks/bank_panel.h"
#include "banks/fractal_panel.h"
#include "document/documentmodel.h"
#include "grid/gridview.h"
#include "trace/sample_logs.h"
#include "window/mainwindow.h"
#include "window/presenter.h"

#include "tilescope/banks/fractal.h"
#include "tilescope/notation/mapping.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

using namespace tsw;

namespace {

const char* kLesson = TILESCOPE_SOURCE_DIR "/samples/lesson_storage_layout.tilescope.json";
const int kSteps = 11;

// The number before `unit` in a caption ("... 4 wavefronts"), -1 when there is none.
int numberBefore(const QString& caption, const QString& unit) {
    const QRegularExpression re(QStringLiteral("(\\d+) %1").arg(unit));
    const auto m = re.match(caption);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

class TestLessonStorage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void listedInFileSamples() {
        MainWindow w;
        w.setConfirmOnClose(false);
        bool listed = false;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("Lesson: storage and layout, from the MMA atom to the "
                                            "shared tile") &&
                a->toolTip().endsWith(QStringLiteral("lesson_storage_layout.tilescope.json")))
                listed = true;
        QVERIFY(listed);
    }

    void captionsStateWhatTheAppShows() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson), QSize(1300, 850)));
        DocumentModel* doc = w.document();
        QCOMPARE(doc->count(), kSteps);
        auto* docks = w.findChild<BankDocks*>(QStringLiteral("bankDocks"));
        Presenter* p = w.presenter();
        p->setActive(true);
        QCoreApplication::processEvents();
        // The steps the row-major tile's count is quoted for: (step, its text, the caption).
        QList<std::pair<QString, QString>> rowMajor;
        int fragments = 0, banks = 0;
        bool fractal = false, log = false;
        for (int i = 0; i < doc->count(); ++i) {
            QCOMPARE(doc->active(), i);
            const ts::DocLayout& l = doc->layout(i);
            const QString caption = w.gridView()->caption();
            QVERIFY2(caption.startsWith(QStringLiteral("Step %1 of %2 · ").arg(i + 1).arg(kSteps)),
                     qPrintable(caption));
            QTRY_VERIFY(!w.gridView()->model().isEmpty());
            QVERIFY2(w.gridView()->message().isEmpty(), qPrintable(w.gridView()->message()));
            const QString text = QString::fromStdString(l.text);
            const ts::Mapping m = ts::parseMapping(l.text);
            if (const auto* f = std::get_if<ts::Fragment>(&m)) {
                ++fragments;
                const ts::FragmentTable t = f->evaluate();
                QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::Fragment);
                // Presented alone, also after a step with an analysis (the last step follows
                // the fractal one): a panel beside it would be about another tile.
                QCOMPARE(p->analysisDock(), nullptr);
                QVERIFY(!docks->bankDock()->isVisible());
                QVERIFY(!docks->fractalDock()->isVisible());
                QCOMPARE(numberBefore(caption, QStringLiteral("threads")), int(t.threadExtent));
                const int values = numberBefore(caption, QStringLiteral("values"));
                if (values >= 0) QCOMPARE(values, int(t.localShape.at(0)));
                const int replicas = numberBefore(caption, QStringLiteral("replicas"));
                QCOMPARE(replicas >= 0 ? replicas : 1, int(t.replicate));
                if (t.replicate > 1) QVERIFY(replicas > 0);
                if (caption.contains(QStringLiteral("Sample Logs"))) {
                    // The log the step points to is one the menu lists, and it holds the
                    // conflict the caption names, with this step's thread expression.
                    log = true;
                    bool found = false;
                    for (const SampleLog& s :
                         sampleLogs(QStringLiteral(TILESCOPE_SOURCE_DIR "/samples"))) {
                        if (!caption.contains(QStringLiteral("Sample Logs > ") + s.title)) continue;
                        QFile file(s.path);
                        QVERIFY(file.open(QIODevice::ReadOnly));
                        const QString body = QString::fromUtf8(file.readAll());
                        QVERIFY(body.contains(QStringLiteral("Get different layout for A_frag")));
                        QVERIFY(body.contains(QStringLiteral("current layout: Fragment((64, 64) -> "
                                                             "(64,), replicate: 2, thread: 128, "
                                                             "forward_thread: _rep * 64 + _j // 32 "
                                                             "* 32 + _j % 8 * 4 + _i % 8 // 2")));
                        found = true;
                    }
                    QVERIFY2(found, qPrintable(caption));
                }
            } else if (l.analysis.panel == "banks") {
                ++banks;
                BankPanel* bank = docks->bankPanel();
                QCOMPARE(p->analysisDock(), docks->bankDock());
                QVERIFY2(bank->errorText().isEmpty(), qPrintable(bank->errorText()));
                QCOMPARE(bank->layoutText(), text);
                QCOMPARE(bank->accessText(), QString::fromStdString(l.analysis.access));
                const int shown =
                    bank->cost()->instructions[std::size_t(l.analysis.step)].wavefronts;
                QCOMPARE(numberBefore(caption, QStringLiteral("wavefronts")), shown);
                QVERIFY(bank->stepText().contains(QStringLiteral(": %1 wavefront").arg(shown)));
                QVERIFY2(!caption.contains(QStringLiteral("⚠")), qPrintable(caption));
                if (caption.contains(QStringLiteral("on the row-major tile")))
                    rowMajor.append({text, caption});
                // The padded step's sizes: the grid's title and the plain tile's cells.
                const QRegularExpression sizes(QStringLiteral("(\\d+) elements instead of (\\d+)"));
                if (const auto s = sizes.match(caption); s.hasMatch()) {
                    const QRegularExpression titleRe(
                        QStringLiteral("^Layout \\[(\\d+)×(\\d+)\\] → \\[(\\d+)\\]"));
                    // The grid's model comes from the evaluator, off the UI thread.
                    QTRY_VERIFY2(titleRe.match(w.gridView()->model().title()).hasMatch(),
                                 qPrintable(w.gridView()->model().title()));
                    const auto t = titleRe.match(w.gridView()->model().title());
                    QCOMPARE(s.captured(1), t.captured(3));
                    QCOMPARE(s.captured(2).toInt(), t.captured(1).toInt() * t.captured(2).toInt());
                }
            } else {
                QCOMPARE(QString::fromStdString(l.analysis.panel), QStringLiteral("fractal"));
                QCOMPARE(p->analysisDock(), docks->fractalDock());
                fractal = true;
                const ts::FractalView f = ts::fractalView(ts::FractalKind::nZ, 40, 40, "float16");
                QCOMPARE(numberBefore(caption, QStringLiteral("elements of storage")),
                         int(f.footprint_elements));
                QCOMPARE(numberBefore(caption, QStringLiteral("of them padding")),
                         int(f.padding_elements()));
                QVERIFY(caption.contains(QStringLiteral("C0 = 32 B / 2 B = %1").arg(f.c0)));
                QVERIFY(docks->fractalPanel()->footprintText().contains(
                    QStringLiteral("%1 elements").arg(f.footprint_elements)));
            }
            QTest::keyClick(w.gridView(), Qt::Key_PageDown);
            QCoreApplication::processEvents();
        }
        QCOMPARE(fragments, 5);
        QCOMPARE(banks, 5);
        QVERIFY(fractal);
        QVERIFY(log);
        p->setActive(false);
        QVERIFY(!doc->isDirty());
        // The row-major counts quoted beside each swizzle: the same access in the same panel on
        // make_linear_layout of the same shape.
        QCOMPARE(rowMajor.size(), 3);
        BankPanel* bank = docks->bankPanel();
        for (const auto& [text, caption] : rowMajor) {
            QString plain = text;
            plain.replace(QRegularExpression(QStringLiteral("^make_\\w+_bank_swizzled_layout")),
                          QStringLiteral("make_linear_layout"));
            QVERIFY(plain != text);
            QVERIFY(bank->applyView(plain, QStringLiteral("lanes:lambda t: (t, 0)"),
                                    QStringLiteral("float16"), 8, false, 0));
            QCOMPARE(numberBefore(caption, QStringLiteral("on the row-major tile")),
                     bank->cost()->instructions[0].wavefronts);
        }
    }
};

QTEST_MAIN(TestLessonStorage)
#include "test_lesson_storage.moc"
