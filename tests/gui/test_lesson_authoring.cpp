// SPDX-License-Identifier: Apache-2.0
// Authoring a lesson in the app and handing it out (docs/teaching.md): the document's caption
// and move edits (undoable, ids kept, saved), the Lesson steps panel driven through its own
// actions and the Bank conflicts panel's access field, and the PDF handout of the sample lesson
// checked page by page against the numbers the app shows for each step (pdftotext, pdftoppm).
#include "test_gui_common.h"
#include "window_fixture.h"

#include "banks/bank_docks.h"
#include "banks/bank_panel.h"
#include "banks/lesson_handout.h"
#include "document/documentmodel.h"
#include "grid/gridview.h"
#include "lesson/lesson_panel.h"
#include "lesson/lesson_steps_model.h"
#include "window/mainwindow.h"
#include "window/presenter.h"

#include "tilescope/banks/fractal.h"

#include <QAction>
#include <QDockWidget>
#include <QImage>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMimeData>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace tsw;

namespace {

const char* kLesson = TILESCOPE_SOURCE_DIR "/samples/lesson_bank_conflicts.tilescope.json";
const QString kRowMajor = QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)");
const QString kPadded = QStringLiteral("T.Layout([32, 32], lambda i, j: i * 33 + j)");
const QString kColumn = QStringLiteral("lanes:lambda t: (t, 0)");
const QString kRow = QStringLiteral("lanes:lambda t: (0, t)");

ts::DocLayout docLayout(const char* name, const QString& text) {
    ts::DocLayout l;
    l.name = name;
    l.text = text.toStdString();
    return l;
}

QString names(const DocumentModel& doc) {
    QStringList n;
    for (int i = 0; i < doc.count(); ++i)
        n << QString::fromStdString(doc.layout(i).name);
    return n.join(QLatin1Char(','));
}

BankPanel* bankOf(MainWindow& w) {
    return w.findChild<BankDocks*>(QStringLiteral("bankDocks"))->bankPanel();
}

// Types `text` into the Bank conflicts panel's access field, as a user does.
void typeAccess(BankPanel* bank, const QString& text) {
    auto* edit = bank->findChild<QLineEdit*>(QStringLiteral("bankAccess"));
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

// Runs a tool of poppler-utils; its standard output.
QByteArray poppler(const QString& tool, const QStringList& args) {
    const QString exe = QStandardPaths::findExecutable(tool);
    if (exe.isEmpty()) {
        qWarning("%s is not installed (poppler-utils: tools/install-deps.sh)", qPrintable(tool));
        return {};
    }
    QProcess p;
    p.start(exe, args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0) return {};
    return p.readAllStandardOutput();
}

} // namespace

class TestLessonAuthoring : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    // setCaption and moveLayout: one undo step each, the document marked modified, ids and
    // revisions kept, the active layout followed, and both saved.
    void captionAndMoveAreUndoableEdits() {
        DocumentModel doc;
        doc.newDocument();
        doc.addLayout(docLayout("b", kRowMajor));
        doc.addLayout(docLayout("c", kPadded));
        doc.setText(0, kRowMajor);
        doc.rename(0, QStringLiteral("a"));
        doc.undoStack()->setClean();
        QCOMPARE(names(doc), QStringLiteral("a,b,c"));
        const LayoutId ids[3] = {doc.idAt(0), doc.idAt(1), doc.idAt(2)};
        const quint64 revs[3] = {doc.revisionAt(0), doc.revisionAt(1), doc.revisionAt(2)};

        QSignalSpy captions(&doc, &DocumentModel::captionChanged);
        const int steps = doc.undoStack()->count();
        doc.setCaption(1, QStringLiteral("  two\nlines  "));
        QCOMPARE(doc.layout(1).caption, std::string("two lines")); // one line
        QCOMPARE(captions.count(), 1);
        QCOMPARE(captions.first().first().toInt(), 1);
        QVERIFY(doc.isDirty());
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        doc.setCaption(1, QStringLiteral("two lines")); // unchanged: no step
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.layout(1).caption, std::string());
        QVERIFY(!doc.isDirty());
        doc.undoStack()->redo();
        QCOMPARE(doc.layout(1).caption, std::string("two lines"));
        QCOMPARE(doc.revisionAt(1), revs[1]); // a caption is not the text

        doc.setActive(0);
        QSignalSpy moved(&doc, &DocumentModel::layoutMoved);
        QSignalSpy active(&doc, &DocumentModel::activeChanged);
        doc.moveLayout(0, 2);
        QCOMPARE(names(doc), QStringLiteral("b,c,a"));
        QCOMPARE(moved.count(), 1);
        QCOMPARE(moved.first().at(0).toInt(), 0);
        QCOMPARE(moved.first().at(1).toInt(), 2);
        QCOMPARE(doc.active(), 2); // the active layout stays active
        QCOMPARE(active.count(), 1);
        QCOMPARE(doc.idAt(0), ids[1]);
        QCOMPARE(doc.idAt(1), ids[2]);
        QCOMPARE(doc.idAt(2), ids[0]);
        QCOMPARE(doc.revisionOf(ids[0]), revs[0]);
        QCOMPARE(doc.revisionOf(ids[2]), revs[2]);
        QCOMPARE(doc.undoStack()->count(), steps + 2);
        // A layout moved across the active one shifts it.
        doc.setActive(1); // c
        doc.moveLayout(2, 0);
        QCOMPARE(names(doc), QStringLiteral("a,b,c"));
        QCOMPARE(doc.active(), 2);
        QCOMPARE(doc.nameOf(doc.activeId()), QStringLiteral("c"));
        doc.undoStack()->undo();
        QCOMPARE(names(doc), QStringLiteral("b,c,a"));
        QCOMPARE(doc.nameOf(doc.activeId()), QStringLiteral("c"));
        doc.undoStack()->undo();
        QCOMPARE(names(doc), QStringLiteral("a,b,c"));
        QCOMPARE(doc.idAt(0), ids[0]);
        QCOMPARE(doc.nameOf(doc.activeId()), QStringLiteral("c"));
        doc.undoStack()->redo();
        // Out of range or onto itself: nothing.
        const int before = doc.undoStack()->count();
        doc.moveLayout(1, 1);
        doc.moveLayout(-1, 0);
        doc.moveLayout(0, 3);
        QCOMPARE(doc.undoStack()->count(), before);

        // Saved: the order and the captions.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("moved.tilescope.json"));
        QString error;
        QVERIFY2(doc.save(path, &error), qPrintable(error));
        DocumentModel again;
        QVERIFY2(again.load(path, &error), qPrintable(error));
        QCOMPARE(names(again), QStringLiteral("b,c,a"));
        QCOMPARE(again.layout(0).caption, std::string("two lines"));
    }

    // Dragging a step in the list moves its layout: one undo step, the rows follow.
    void dragMovesAStep() {
        DocumentModel doc;
        doc.newDocument();
        doc.rename(0, QStringLiteral("a"));
        doc.addLayout(docLayout("b", kRowMajor));
        doc.addLayout(docLayout("c", kPadded));
        LessonStepsModel steps(&doc);
        QSignalSpy moved(&steps, &QAbstractItemModel::rowsMoved);
        const int undo = doc.undoStack()->count();
        // "a" dropped onto "c": before it.
        std::unique_ptr<QMimeData> data(steps.mimeData({steps.index(0)}));
        QVERIFY(data);
        QVERIFY(steps.canDropMimeData(data.get(), Qt::MoveAction, -1, -1, steps.index(2)));
        QVERIFY(!steps.canDropMimeData(data.get(), Qt::CopyAction, -1, -1, steps.index(2)));
        steps.dropMimeData(data.get(), Qt::MoveAction, -1, -1, steps.index(2));
        QCOMPARE(names(doc), QStringLiteral("b,a,c"));
        QCOMPARE(moved.count(), 1);
        QCOMPARE(doc.undoStack()->count(), undo + 1);
        QVERIFY(steps.data(steps.index(1)).toString().startsWith(QStringLiteral("Step 2 · a — ")));
        // Below the last row: to the end.
        data.reset(steps.mimeData({steps.index(0)}));
        steps.dropMimeData(data.get(), Qt::MoveAction, -1, -1, {});
        QCOMPARE(names(doc), QStringLiteral("a,c,b"));
        // A view's internal move.
        QVERIFY(steps.moveRows({}, 2, 1, {}, 0));
        QCOMPARE(names(doc), QStringLiteral("b,a,c"));
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(names(doc), QStringLiteral("a,b,c"));
        QCOMPARE(steps.data(steps.index(0)).toString().left(11), QStringLiteral("Step 1 · a "));
    }

    // A 3-step lesson from scratch through the panel's own actions and the bank panel's access
    // field; saved and reopened, its captions, analyses and order are back.
    // F2 in the steps list edits the step's caption, as the list says, although F2 is also the
    // window's Rename Layout: the layout keeps its name.
    void f2InTheStepsListEditsTheCaption() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson), QSize(1400, 900)));
        DocumentModel* doc = w.document();
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
        QVERIFY(dock);
        dock->toggleViewAction()->trigger();
        QTRY_VERIFY(dock->isVisible());
        dock->raise();
        auto* panel = dock->findChild<LessonPanel*>();
        QVERIFY(panel);
        QListView* view = panel->stepsView();
        doc->setActive(1);
        const QModelIndex step = panel->stepsModel()->index(1);
        QTRY_COMPARE(view->currentIndex(), step);
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        const std::string name = doc->layout(1).name;
        QTest::keyClick(view, Qt::Key_F2);
        auto* editor = qobject_cast<QLineEdit*>(view->indexWidget(step));
        QVERIFY2(editor, "F2 opened no caption editor in the steps list");
        QCOMPARE(editor->text(), QString::fromStdString(doc->layout(1).caption));
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("Padding makes the column read conflict-free"));
        QTest::keyClick(editor, Qt::Key_Return);
        // The delegate commits on Return through a queued call.
        QTRY_COMPARE(QString::fromStdString(doc->layout(1).caption),
                     QStringLiteral("Padding makes the column read conflict-free"));
        QCOMPARE(doc->layout(1).name, name);
    }

    // File > New after a lesson in float32: the Bank conflicts panel shows none of the closed
    // project's settings, its dtype included.
    void newProjectDropsTheLessonsDtype() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson), QSize(1400, 900)));
        w.findChild<QDockWidget*>(QStringLiteral("bankDock"))->show();
        BankPanel* bank = bankOf(w);
        QTRY_COMPARE(bank->dtype(), QStringLiteral("float32"));
        w.newDocument();
        QTRY_VERIFY(!bank->analysisPending());
        QCOMPARE(bank->dtype(), QStringLiteral("float16"));
        QVERIFY(bank->autoAccess());
    }

    void authorALessonThroughThePanel() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("authored.tilescope.json"));
        {
            MainWindow w;
            w.setConfirmOnClose(false);
            w.resize(1400, 900);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.newDocument();
            DocumentModel* doc = w.document();
            doc->setText(0, kRowMajor);
            doc->rename(0, QStringLiteral("row-major"));
            // View > Panels lists the panel; its toggle opens it.
            auto* dock = w.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
            QVERIFY(dock);
            QVERIFY(!dock->isVisible());
            dock->toggleViewAction()->trigger();
            QTRY_VERIFY(dock->isVisible());
            auto* panel = dock->findChild<LessonPanel*>();
            QVERIFY(panel);
            LessonStepsModel* steps = panel->stepsModel();
            QCOMPARE(panel->stepsView()->model(), steps);

            // Step 1: the access typed in the bank panel, a caption, Save.
            w.findChild<QDockWidget*>(QStringLiteral("bankDock"))->show();
            BankPanel* bank = bankOf(w);
            QTRY_COMPARE(bank->sourceName(), QStringLiteral("row-major"));
            typeAccess(bank, kColumn);
            QTRY_VERIFY(!bank->analysisPending());
            const int wavefronts1 = bank->cost()->wavefronts;
            QLineEdit* caption = panel->captionEdit();
            caption->clear();
            panel->saveStepAction()->trigger(); // no caption: refused, said
            QVERIFY(panel->noteText().contains(QStringLiteral("caption")));
            QCOMPARE(doc->layout(0).caption, std::string());
            QTest::keyClicks(caption, QStringLiteral("Column access: 16 wavefronts"));
            int undo = doc->undoStack()->count();
            panel->saveStepAction()->trigger();
            QCOMPARE(doc->undoStack()->count(), undo + 1); // one step
            QCOMPARE(doc->layout(0).caption, std::string("Column access: 16 wavefronts"));
            QCOMPARE(QString::fromStdString(doc->layout(0).analysis.access), kColumn);
            QCOMPARE(doc->layout(0).analysis.panel, std::string("banks"));
            QCOMPARE(wavefronts1, 16); // float16: two elements a word
            QVERIFY(steps->data(steps->index(0))
                        .toString()
                        .startsWith(
                            QStringLiteral("Step 1 · row-major — Column access: 16 wavefronts")));
            QVERIFY(steps->data(steps->index(0))
                        .toString()
                        .contains(QStringLiteral("banks: %1 float16").arg(kColumn)));
            // The presenter's caption follows at once.
            QVERIFY(w.gridView()->caption().contains(QStringLiteral("Column access")));

            // Step 2: Add Step from Current (a copy after it), its text edited, another access
            // typed (the step keeps its own until saved), a caption, Save.
            caption->clear();
            QTest::keyClicks(caption, QStringLiteral("Padded rows"));
            panel->addStepAction()->trigger();
            QCOMPARE(doc->count(), 2);
            QCOMPARE(doc->active(), 1);
            QCOMPARE(doc->layout(1).caption, std::string("Padded rows"));
            QCOMPARE(QString::fromStdString(doc->layout(1).analysis.access), kColumn);
            QCOMPARE(panel->stepsView()->currentIndex().row(), 1); // the list follows
            doc->setText(1, kPadded);
            doc->rename(1, QStringLiteral("padded"));
            QTRY_COMPARE(bank->sourceName(), QStringLiteral("padded"));
            QTRY_COMPARE(bank->layoutText(), kPadded);
            typeAccess(bank, kRow);
            QTRY_VERIFY(!bank->analysisPending());
            QCOMPARE(QString::fromStdString(doc->layout(1).analysis.access), kColumn);
            caption->clear();
            QTest::keyClicks(caption, QStringLiteral("Padded rows, row access"));
            QTest::keyClick(caption, Qt::Key_Return); // Enter saves
            QCOMPARE(QString::fromStdString(doc->layout(1).analysis.access), kRow);
            QCOMPARE(doc->layout(1).caption, std::string("Padded rows, row access"));
            QVERIFY(steps->data(steps->index(1))
                        .toString()
                        .startsWith(QStringLiteral("Step 2 · padded — Padded rows, row access")));

            // A copy made without typing a caption has none: the step's caption (and its
            // numbers) are the step's. Undone.
            panel->addStepAction()->trigger();
            QCOMPARE(doc->count(), 3);
            QCOMPARE(doc->layout(2).caption, std::string());
            doc->undoStack()->undo();
            QCOMPARE(doc->count(), 2);
            // Step 3: another copy; moved up, down; deleted and undone.
            caption->clear();
            QTest::keyClicks(caption, QStringLiteral("Third"));
            panel->addStepAction()->trigger();
            QCOMPARE(doc->count(), 3);
            QCOMPARE(doc->active(), 2);
            const LayoutId third = doc->activeId();
            const QString thirdName = doc->nameOf(third);
            QVERIFY(!panel->moveDownAction()->isEnabled());
            panel->moveUpAction()->trigger();
            QCOMPARE(doc->indexOf(third), 1);
            QCOMPARE(doc->active(), 1);
            QVERIFY(steps->data(steps->index(1))
                        .toString()
                        .startsWith(QStringLiteral("Step 2 · %1 — Third").arg(thirdName)));
            QVERIFY(steps->data(steps->index(2))
                        .toString()
                        .startsWith(QStringLiteral("Step 3 · padded")));
            QCOMPARE(panel->stepsView()->currentIndex().row(), 1);
            doc->undoStack()->undo();
            QCOMPARE(doc->indexOf(third), 2);
            doc->undoStack()->redo();
            QCOMPARE(doc->indexOf(third), 1);
            // The caption edited in place (the list's editor writes the document).
            QVERIFY(steps->setData(steps->index(1), QStringLiteral("Third, edited")));
            QCOMPARE(doc->layout(1).caption, std::string("Third, edited"));
            QCOMPARE(caption->text(), QStringLiteral("Third, edited"));
            // Deleted, and back with its identity.
            panel->deleteStepAction()->trigger();
            QCOMPARE(doc->count(), 2);
            QCOMPARE(doc->indexOf(third), -1);
            QCOMPARE(steps->rowCount(), 2);
            doc->undoStack()->undo();
            QCOMPARE(doc->indexOf(third), 1);
            QCOMPARE(steps->rowCount(), 3);
            // Down, through the menu's action: the order the lesson is saved in.
            doc->setActive(1);
            panel->moveDownAction()->trigger();
            QCOMPARE(names(*doc), QStringLiteral("row-major,padded,") + thirdName);
            // A rename reaches the list by construction.
            doc->rename(0, QStringLiteral("row major"));
            QVERIFY(steps->data(steps->index(0))
                        .toString()
                        .startsWith(QStringLiteral("Step 1 · row major — ")));
            QString error;
            QVERIFY2(doc->save(path, &error), qPrintable(error));
            // Another project: the list is that project's.
            w.newDocument();
            QCOMPARE(steps->rowCount(), 1);
            QVERIFY(steps->data(steps->index(0)).toString().contains(QStringLiteral("no caption")));
        }
        MainWindow w;
        QVERIFY(showWithFile(w, path));
        DocumentModel* doc = w.document();
        QCOMPARE(doc->count(), 3);
        QCOMPARE(QString::fromStdString(doc->layout(0).name), QStringLiteral("row major"));
        QCOMPARE(doc->layout(0).caption, std::string("Column access: 16 wavefronts"));
        QCOMPARE(QString::fromStdString(doc->layout(0).analysis.access), kColumn);
        QCOMPARE(QString::fromStdString(doc->layout(1).text), kPadded);
        QCOMPARE(doc->layout(1).caption, std::string("Padded rows, row access"));
        QCOMPARE(QString::fromStdString(doc->layout(1).analysis.access), kRow);
        QCOMPARE(doc->layout(2).caption, std::string("Third, edited"));
        // Added from step 2: its access came along.
        QCOMPARE(QString::fromStdString(doc->layout(2).analysis.access), kRow);
        // The reopened lesson shows step 2's saved access in the bank panel.
        doc->setActive(1);
        BankPanel* bank = bankOf(w);
        QTRY_COMPARE(bank->accessText(), kRow);
        QTRY_VERIFY(!bank->analysisPending());
        QVERIFY(!doc->isDirty());
    }

    // The sample lesson's handout: one page per step, each with the numbers the app shows for
    // that step, written off the UI thread.
    void handoutOfTheSampleLesson() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson), QSize(1400, 900)));
        DocumentModel* doc = w.document();
        const int n = doc->count();
        QCOMPARE(n, 6);
        // The app's numbers, step by step, as the bank panel shows them.
        QStringList totals, shown;
        BankPanel* bank = bankOf(w);
        for (int i = 0; i < n; ++i) {
            doc->setActive(i);
            const ts::DocLayout& l = doc->layout(i);
            if (l.analysis.panel != "banks") {
                totals << QString();
                shown << QString();
                continue;
            }
            QTRY_COMPARE(bank->layoutText(), QString::fromStdString(l.text));
            QTRY_VERIFY(!bank->analysisPending() && bank->cost());
            QCOMPARE(bank->accessText(), QString::fromStdString(l.analysis.access));
            totals << bank->totalsText();
            shown << bank->stepText();
        }
        // Looking at another step, with another access typed: the handout is the lesson's.
        doc->setActive(0);
        QTRY_VERIFY(!bank->analysisPending());
        typeAccess(bank, kRow);

        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("handout.pdf"));
        QSignalSpy done(&w, &MainWindow::handoutFinished);
        QVERIFY(w.startHandoutExport(pdf));
        QVERIFY(w.handoutRunning());
        QVERIFY(!w.startHandoutExport(pdf)); // one at a time
        QCOMPARE(done.count(), 0);           // the UI thread is free meanwhile
        QVERIFY(done.wait(60000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(2).toString()));
        QCOMPARE(done.first().at(3).toInt(), n);

        // One page per step: the file's page objects.
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        const QRegularExpression pageObject(QStringLiteral("/Type\\s*/Page(?![a-zA-Z])"));
        QCOMPARE(int(QString::fromLatin1(bytes).count(pageObject)), n);

        // Each page's text holds its step's title, caption and the app's numbers.
        for (int i = 0; i < n; ++i) {
            const QString page =
                QString::fromUtf8(
                    poppler(QStringLiteral("pdftotext"),
                            {QStringLiteral("-f"), QString::number(i + 1), QStringLiteral("-l"),
                             QString::number(i + 1), pdf, QStringLiteral("-")}))
                    // the PDF's fonts use ligatures ("ﬂ"): compare letters
                    .normalized(QString::NormalizationForm_KC)
                    .simplified();
            QVERIFY2(!page.isEmpty(), "pdftotext (poppler-utils) gave no text");
            const ts::DocLayout& l = doc->layout(i);
            QVERIFY2(page.contains(QStringLiteral("Step %1 of %2 · %3")
                                       .arg(i + 1)
                                       .arg(n)
                                       .arg(QString::fromStdString(l.name))),
                     qPrintable(page));
            QVERIFY(page.contains(QString::fromStdString(l.caption).left(40).simplified()));
            if (l.analysis.panel == "banks") {
                QVERIFY2(page.contains(totals[i].simplified()),
                         qPrintable(totals[i] + QStringLiteral(" not in: ") + page));
                QVERIFY2(page.contains(shown[i].simplified()),
                         qPrintable(shown[i] + QStringLiteral(" not in: ") + page));
                QVERIFY(page.contains(QString::fromStdString(l.analysis.access)));
                QVERIFY(!page.contains(kRow)); // not what the panel shows now
                // The heat map has no title of its own: the layout's ("label and colour: ...")
                // would name offsets over cells that show banks.
                QVERIFY2(page.count(QStringLiteral("label and colour")) <= 1, qPrintable(page));
            } else {
                const ts::FractalView fv = ts::fractalView(ts::FractalKind::zN, 40, 40, "float16");
                QVERIFY2(page.contains(
                             QStringLiteral("storage: %1 elements").arg(fv.footprint_elements)),
                         qPrintable(page));
                QVERIFY(
                    page.contains(QStringLiteral("%1 of them padding").arg(fv.padding_elements())));
            }
        }
        // And each page is a picture, not a blank: pdftoppm renders it with coloured cells.
        const QString prefix = dir.filePath(QStringLiteral("page"));
        poppler(QStringLiteral("pdftoppm"),
                {QStringLiteral("-r"), QStringLiteral("30"), QStringLiteral("-png"), pdf, prefix});
        const QStringList pngs =
            QDir(dir.path()).entryList({QStringLiteral("page*.png")}, QDir::Files, QDir::Name);
        QCOMPARE(pngs.size(), n);
        for (const QString& png : pngs) {
            const QImage img(dir.filePath(png));
            QVERIFY(!img.isNull());
            int coloured = 0;
            for (int y = 0; y < img.height(); y += 2)
                for (int x = 0; x < img.width(); x += 2) {
                    const QColor c = img.pixelColor(x, y);
                    if (c.saturation() > 60) ++coloured;
                }
            QVERIFY2(coloured > 200, qPrintable(png));
        }
    }

    // A long handout shows its progress (after 100 ms) while the window stays responsive, and
    // Cancel leaves no file.
    void longHandoutShowsProgressAndCancels() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson)));
        DocumentModel* doc = w.document();
        const ts::Document lesson = doc->document();
        for (int k = 0; k < 10; ++k) // 66 steps
            for (const ts::DocLayout& l : lesson.layouts)
                doc->addLayout(l);
        const int n = doc->count();
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("long.pdf"));
        QSignalSpy done(&w, &MainWindow::handoutFinished);
        QVERIFY(w.startHandoutExport(pdf));
        QProgressDialog* progress = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (progress = w.findChild<QProgressDialog*>(QStringLiteral("handoutProgress"))), 3000);
        QVERIFY(done.isEmpty());
        QTRY_VERIFY(progress->labelText().contains(QStringLiteral(" of %1").arg(n)));
        // The window answers meanwhile: moving between steps works.
        doc->setActive(1);
        QCOMPARE(doc->active(), 1);
        auto* cancel = progress->findChild<QPushButton*>();
        QVERIFY(cancel);
        QCOMPARE(cancel->text(), QStringLiteral("Cancel"));
        cancel->click();
        QVERIFY(done.wait(30000));
        QVERIFY(!done.first().at(0).toBool());
        QVERIFY(done.first().at(1).toBool()); // cancelled
        QVERIFY(!QFile::exists(pdf));
        QVERIFY(!w.handoutRunning());
    }

    // The same handout from the command line: `tilescope-cli handout`.
    void handoutFromTheCommandLine() {
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("cli.pdf"));
        QProcess cli;
        cli.start(
            QStringLiteral(TILESCOPE_CLI),
            {QStringLiteral("handout"), QString::fromLatin1(kLesson), QStringLiteral("-o"), pdf});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY(cli.readAllStandardOutput().contains("6 pages"));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QRegularExpression pageObject(QStringLiteral("/Type\\s*/Page(?![a-zA-Z])"));
        QCOMPARE(int(QString::fromLatin1(f.readAll()).count(pageObject)), 6);
        // A broken step: refused by name (exit 2), nothing written.
        DocumentModel doc;
        QString error;
        QVERIFY(doc.load(QString::fromLatin1(kLesson), &error));
        doc.setText(1, QStringLiteral("T.Layout([32, 32], lambda i, j: )"));
        const QString broken = dir.filePath(QStringLiteral("broken.tilescope.json"));
        QVERIFY2(doc.save(broken, &error), qPrintable(error));
        const QString none = dir.filePath(QStringLiteral("none.pdf"));
        cli.start(QStringLiteral(TILESCOPE_CLI),
                  {QStringLiteral("handout"), broken, QStringLiteral("-o"), none});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("Step 2 «2. padded to 33»: its text has an error")),
                 qPrintable(err));
        QVERIFY(!QFile::exists(none));
    }

    // A step whose text has an error: refused, naming it, and no file written.
    void handoutRefusesAStepWithAnError() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson)));
        DocumentModel* doc = w.document();
        doc->setText(2, QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 +"));
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("broken.pdf"));
        QSignalSpy done(&w, &MainWindow::handoutFinished);
        QVERIFY(w.startHandoutExport(pdf));
        QVERIFY(done.wait(30000));
        QVERIFY(!done.first().at(0).toBool());
        const QString error = done.first().at(2).toString();
        QVERIFY2(error.startsWith(QStringLiteral("Step 3 «3. XOR swizzle»: its text has an error")),
                 qPrintable(error));
        QVERIFY(w.lastError().contains(error));
        QVERIFY(!QFile::exists(pdf));
        // The same refusal from the function itself, before any page.
        QCOMPARE(handoutRefusal(doc->document()), error);
    }
};

QTEST_MAIN(TestLessonAuthoring)
#include "test_lesson_authoring.moc"
