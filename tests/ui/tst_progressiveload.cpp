// [load-speed] Progressive loading in the window: while a run of several files loads, every view
// shows the ranks read so far and says so in its dock's title; the whole run replaces them,
// keeping the selection; Cancel puts back what was open before the load.

#ifndef Q_MOC_RUN
#include "model/synth/synthrun.h"
#include "model/trace.h"
#include "testsupport.h"
#endif

#include "uitestsupport.h"

#include "session/runsession.h"
#include "shell/loadcontroller.h"

#include <QDockWidget>
#include <QStandardPaths>
#include <QThreadPool>

using namespace kscope;
using namespace kscope::test;

class TestProgressiveLoad : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        // Every file read may give a snapshot (the rations still double the ranks each time).
        m_window->loader()->setProgressiveTiming(0, 0);
        const auto dir = scratchDir("kscope-ui-progressive");
        SynthOptions options;
        options.ranks = 6;
        options.steps = 2;
        QVERIFY(writeSynthRun(dir, options).ok);
        m_run = QString::fromStdString(dir.string());
    }

    void init()
    {
        if (m_window->run() || m_window->loader()->isLoading())
            QVERIFY(waitIdle(*m_window));
        if (m_window->session()->runPath() != MainWindow::sampleRunPath())
            QVERIFY(openAndWait(*m_window, MainWindow::sampleRunPath()));
        m_window->session()->selection()->clear();
        QVERIFY(waitIdle(*m_window));
    }

    void viewsShowTheRanksReadSoFarThenTheWholeRun()
    {
        MainWindow& w = *m_window;
        struct Seen {
            size_t ranks = 0;
            uint32_t stillLoading = 0;
            QString dockTitle, windowTitle;
        };
        QList<Seen> seen;
        int selected = -1;
        const auto connection = connect(&w, &MainWindow::partialRunShown, this, [&] {
            const auto run = w.run();
            seen.push_back({run->ranks.size(), run->filesStillLoading, w.dock(QStringLiteral("temporal"))->windowTitle(),
                            w.windowTitle()});
            if (selected < 0) {  // a rank picked while loading stays picked
                screenshot(&w, "progressive-partial");
                selected = run->ranks.back().rank;
                selectRankNumbered(w, selected);
            }
        });
        QSignalSpy whole(&w, &MainWindow::runChanged);
        w.openRun(m_run);
        QVERIFY(whole.wait(kUiTimeoutMs));
        disconnect(connection);
        QVERIFY(waitIdle(w));

        QVERIFY(!seen.isEmpty());  // a snapshot is queued before the load's end, so it shows first
        for (const Seen& s : seen) {
            QVERIFY(s.ranks >= 1 && s.ranks < 6);
            QCOMPARE(s.ranks + s.stillLoading, size_t(6));
            const QString note = QStringLiteral("partial: %1 of 6 ranks").arg(s.ranks);
            QVERIFY2(s.dockTitle == QStringLiteral("Temporal breakdown (%1)").arg(note), qPrintable(s.dockTitle));
            QVERIFY2(s.windowTitle.contains(QStringLiteral("loading: %1 of 6 ranks").arg(s.ranks)), qPrintable(s.windowTitle));
        }
        QCOMPARE(whole.count(), 1);
        QVERIFY(!w.run()->isPartial());
        QCOMPARE(w.run()->ranks.size(), size_t(6));
        QCOMPARE(selectedRankNumber(w), selected);
        for (AnalysisView* view : w.views()) {
            QVERIFY2(view->isCurrent(), qPrintable(view->title()));
            QCOMPARE(w.dock(view->id())->windowTitle(), view->title());
        }
        QVERIFY(!w.windowTitle().contains(QStringLiteral("loading")));
    }

    void cancelAfterASnapshotPutsBackWhatWasOpen()
    {
        MainWindow& w = *m_window;
        const auto previous = w.run();
        QVERIFY(previous && !previous->isPartial());
        const QString previousTitle = w.windowTitle();
        bool cancelledOnSnapshot = false;
        const auto connection = connect(&w, &MainWindow::partialRunShown, this, [&] {
            if (cancelledOnSnapshot)
                return;
            QVERIFY(w.run()->isPartial());
            cancelledOnSnapshot = true;
            w.loader()->cancel();
        });
        QSignalSpy whole(&w, &MainWindow::runChanged);
        QSignalSpy cancelled(w.loader(), &LoadController::cancelled);
        w.openRun(m_run);
        QVERIFY(cancelled.wait(kUiTimeoutMs));
        disconnect(connection);
        QVERIFY(cancelledOnSnapshot);
        QThreadPool::globalInstance()->waitForDone(kUiTimeoutMs);
        QCoreApplication::processEvents();
        QCOMPARE(w.run(), previous);  // the very run that was open, not a reload of it
        QCOMPARE(w.session()->runPath(), MainWindow::sampleRunPath());
        QCOMPARE(whole.count(), 0);
        QCOMPARE(w.windowTitle(), previousTitle);
        QVERIFY(waitIdle(w));
        for (AnalysisView* view : w.views()) {
            QVERIFY2(view->isCurrent(), qPrintable(view->title()));
            QCOMPARE(w.dock(view->id())->windowTitle(), view->title());
        }
    }

    void cleanupTestCase() { m_window.reset(); }

private:
    std::unique_ptr<MainWindow> m_window;
    QString m_run;
};

QTEST_MAIN(TestProgressiveLoad)
#include "tst_progressiveload.moc"
