// SPDX-License-Identifier: Apache-2.0
// Windows and panels on a small (1024 x 700) screen: opening a panel raises it, the window
// shrinks to the screen with the Trace and Run panels open and no field collapses, Reset Panel
// Arrangement never makes the window wider than the screen.
#include "test_gui_common.h"

#include "run/run_panel.h"
#include "window/mainwindow.h"
#include "window/window_panels.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace tsw;

namespace {

QAction* viewAction(QMainWindow& w, const QString& text) {
    for (QAction* m : w.menuBar()->actions())
        if (m->menu() && m->text().remove('&') == QStringLiteral("View"))
            for (QAction* a : m->menu()->actions())
                if (a->text().remove('&') == text) return a;
    return nullptr;
}

QDockWidget* dock(QMainWindow& w, const char* name) {
    return w.findChild<QDockWidget*>(QString::fromLatin1(name));
}

// The tab currently in front among the tabs of `d`'s group ("" when `d` is not tabified).
QString frontTab(QMainWindow& w, QDockWidget* d) {
    for (QTabBar* bar : w.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == d->windowTitle() && bar->isVisible())
                return bar->tabText(bar->currentIndex());
    return {};
}

} // namespace

class TestGuiWindows : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        guiTestSetUp();
        const QRect avail = QGuiApplication::primaryScreen()->availableGeometry();
        QCOMPARE(avail.size(), QSize(1024, 700)); // the screen main() configured
    }

    void startsInsideASmallScreen() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect avail = w.screen()->availableGeometry();
        QVERIFY2(avail.contains(w.frameGeometry()),
                 qPrintable(QStringLiteral("%1x%2")
                                .arg(w.frameGeometry().width())
                                .arg(w.frameGeometry().height())));
    }

    void openingAPanelRaisesIt() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QDockWidget* bank = dock(w, "bankDock");
        QDockWidget* swizzle = dock(w, "swizzleDock");
        QDockWidget* trace = dock(w, "traceDock");
        QVERIFY(bank && swizzle && trace);
        bank->toggleViewAction()->trigger();
        QTRY_VERIFY(bank->isVisible());
        swizzle->toggleViewAction()->trigger();
        QTRY_COMPARE(frontTab(w, swizzle), swizzle->windowTitle());
        QTRY_VERIFY(swizzle->isVisible() && !swizzle->visibleRegion().isEmpty());
        // From View > Panels too, for a panel of another menu.
        trace->toggleViewAction()->trigger();
        QTRY_COMPARE(frontTab(w, trace), trace->windowTitle());
        bank->toggleViewAction()->trigger(); // hide
        bank->toggleViewAction()->trigger(); // show again: in front
        QTRY_COMPARE(frontTab(w, bank), bank->windowTitle());
    }

    // View > Panels keeps one order however panels are opened, closed or floated (a key pressed
    // from memory hits the same entry): the editing panels, then the tools, each alphabetical.
    void panelsMenuKeepsItsOrder() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction* panelsItem = viewAction(w, QStringLiteral("Panels"));
        QVERIFY(panelsItem && panelsItem->menu());
        QMenu* panels = panelsItem->menu();
        auto order = [&] {
            emit panels->aboutToShow();
            QStringList names;
            for (QAction* a : panels->actions())
                names << (a->isSeparator() ? QStringLiteral("|") : a->text().remove('&'));
            return names;
        };
        const QStringList first = order();
        QVERIFY(first.size() >= 6);
        QVERIFY(first.contains(QStringLiteral("Inference Trace")));
        // Each group alphabetical.
        QStringList group;
        for (const QString& n : first + QStringList{QStringLiteral("|")}) {
            if (n == QStringLiteral("|")) {
                QStringList sorted = group;
                std::sort(sorted.begin(), sorted.end(), [](const QString& a, const QString& b) {
                    return QString::localeAwareCompare(a, b) < 0;
                });
                QCOMPARE(group, sorted);
                group.clear();
            } else {
                group << n;
            }
        }
        for (const char* name : {"traceDock", "bankDock", "runDock"}) {
            QDockWidget* d = dock(w, name);
            QVERIFY(d);
            d->toggleViewAction()->trigger();
            QTRY_VERIFY(d->isVisible());
            QCOMPARE(order(), first);
        }
        dock(w, "bankDock")->setFloating(true);
        QCOMPARE(order(), first);
        dock(w, "traceDock")->toggleViewAction()->trigger();
        QCOMPARE(order(), first);
    }

    // Save As of a sample starts in the user's last folder or documents folder (not the
    // program's resources, which a file dialog shows as "Computer"); the user's own project
    // starts at its own path.
    void saveAsStartsInTheUsersFolder() {
        const QString samples = QStringLiteral(":/tilescope/samples");
        const QString sample = samples + QStringLiteral("/swizzles.tilescope.json");
        const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        QCOMPARE(MainWindow::saveAsStart(sample, samples, {}),
                 QDir(docs).filePath(QStringLiteral("swizzles.tilescope.json")));
        QTemporaryDir mine;
        const QString own = mine.filePath(QStringLiteral("mine.tilescope.json"));
        QCOMPARE(MainWindow::saveAsStart(sample, samples, {sample, own}),
                 QDir(mine.path()).filePath(QStringLiteral("swizzles.tilescope.json")));
        QCOMPARE(MainWindow::saveAsStart(own, samples, {}), own);
        QCOMPARE(MainWindow::saveAsStart(QString(), samples, {}),
                 QDir(docs).filePath(QStringLiteral("untitled.tilescope.json")));
    }

    void shrinksTo1024x700WithTraceAndRunOpen() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QDockWidget* trace = dock(w, "traceDock");
        QDockWidget* run = dock(w, "runDock");
        trace->toggleViewAction()->trigger();
        run->toggleViewAction()->trigger();
        QTRY_VERIFY(run->isVisible());
        QCoreApplication::processEvents();
        const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
        if (qEnvironmentVariableIsSet("TS_DEBUG_SIZES")) {
            for (QDockWidget* d : w.findChildren<QDockWidget*>())
                if (d->isVisible())
                    qDebug() << d->objectName() << d->minimumSizeHint()
                             << d->widget()->minimumSizeHint() << w.dockWidgetArea(d);
            qDebug() << "central" << w.centralWidget()->minimumSizeHint() << "menu"
                     << w.menuBar()->sizeHint();
            for (QWidget* c : dock(w, "traceDock")->widget()->findChildren<QWidget*>())
                if (c->minimumSizeHint().height() > 150 || c->minimumSizeHint().width() > 300)
                    qDebug() << "  trace" << c << c->minimumSizeHint() << c->minimumSize();
            for (QWidget* c : dock(w, "editorDock")->widget()->findChildren<QWidget*>())
                if (c->minimumSizeHint().height() > 150)
                    qDebug() << "  editor" << c << c->minimumSizeHint() << c->minimumSize();
        }
        QVERIFY2(min.width() <= 1024 && min.height() <= 700,
                 qPrintable(QStringLiteral("minimum %1x%2").arg(min.width()).arg(min.height())));
        w.resize(1024 - 8, 700 - 40);
        QTRY_COMPARE(w.size(), QSize(1024 - 8, 700 - 40));
        // Fields keep a usable width.
        RunPanel* panel = runPanelOf(&w);
        QVERIFY(panel);
        QLineEdit* access = panel->accessEdit();
        QTRY_VERIFY(access->isVisible());
        QVERIFY2(access->width() >= 140, qPrintable(QString::number(access->width())));
        QVERIFY(access->width() >=
                access->fontMetrics().horizontalAdvance(QStringLiteral("ldmatrix:x4")));
        for (QPushButton* b : panel->findChildren<QPushButton*>())
            if (b->isVisible())
                QVERIFY2(b->width() >= b->minimumSizeHint().width(), qPrintable(b->text()));
        // Every panel open at once still fits.
        for (QDockWidget* d : w.findChildren<QDockWidget*>())
            if (!d->isVisible()) d->toggleViewAction()->trigger();
        QCoreApplication::processEvents();
        const QSize all = w.minimumSizeHint().expandedTo(w.minimumSize());
        QVERIFY2(all.width() <= 1024 && all.height() <= 700,
                 qPrintable(QStringLiteral("minimum %1x%2").arg(all.width()).arg(all.height())));
    }

    void resetPanelArrangementStaysOnScreen() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        dock(w, "traceDock")->toggleViewAction()->trigger();
        dock(w, "runDock")->toggleViewAction()->trigger();
        dock(w, "bankDock")->toggleViewAction()->trigger();
        QAction* reset = viewAction(w, QStringLiteral("Reset Panel Arrangement"));
        QVERIFY(reset);
        reset->trigger();
        QTest::qWait(50);
        const QRect avail = w.screen()->availableGeometry();
        QVERIFY2(w.frameGeometry().width() <= avail.width(),
                 qPrintable(QString::number(w.frameGeometry().width())));
        QVERIFY(avail.contains(w.frameGeometry()));
        // Maximised stays maximised.
        w.showMaximized();
        QTRY_VERIFY(w.isMaximized());
        reset->trigger();
        QTest::qWait(50);
        QVERIFY(w.isMaximized());
        QVERIFY(w.frameGeometry().width() <= avail.width());
    }
};

// A 1024 x 700 screen with window frames, as a small laptop's.
int main(int argc, char** argv) {
    QTemporaryDir cfgDir;
    const QString cfg = cfgDir.filePath(QStringLiteral("screens.json"));
    QFile f(cfg);
    if (!f.open(QIODevice::WriteOnly)) return 2;
    f.write(R"({"windowFrameMargins": true, "screens": [{"name": "laptop", "x": 0, "y": 0,
                "width": 1024, "height": 700, "logicalDpi": 96, "logicalBaseDpi": 96,
                "dpr": 1}]})");
    f.close();
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + cfg).toLocal8Bit());
    QApplication app(argc, argv);
    TestGuiWindows t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "test_gui_windows.moc"
