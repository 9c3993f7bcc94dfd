// Opening runs: the loaders' signals, the whole run replacing the open one, the snapshots of a
// progressive load shown meanwhile (and put back on Cancel), the comparison's run.

#include "shell/mainwindow.h"

#include "common/format.h"
#include "session/runsession.h"
#include "shell/loadcontroller.h"
#include "shell/loadprogresswidget.h"
#include "views/analysisview.h"
#include "views/viewspec.h"

#include "model/trace.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>

namespace kscope {

void MainWindow::connectLoaders()
{
    // The run's loader shows what it has read so far; the comparison's brings its run whole.
    m_loader->setProgressive(true);
    // One progress bar for both loaders: the run, and the one it is compared with.
    for (LoadController* loader : {m_loader, m_testLoader}) {
        connect(loader, &LoadController::started, this, [this](const QString& path) {
            m_progress->begin(path);
            m_progress->show();
        });
        connect(loader, &LoadController::progress, m_progress, &LoadProgressWidget::showStatus);
        connect(m_progress, &LoadProgressWidget::cancelRequested, loader, &LoadController::cancel);
        connect(loader, &LoadController::cancelled, this, [this, loader](const QString& path) {
            m_progress->hide();
            if (loader == m_loader)
                restoreRunBeforeLoad();
            showStatus(tr("Loading %1 cancelled; %2").arg(QDir::toNativeSeparators(path),
                                                           run() ? tr("what was open stays open") : tr("no run open")),
                       8000);
        });
    }
    connect(m_loader, &LoadController::partial, this,
            [this](std::shared_ptr<const Run> run, const QString& path) { showPartialRun(std::move(run), path); });
    connect(m_loader, &LoadController::finished, this,
            [this](std::shared_ptr<const Run> run, const QString& path) { setRun(std::move(run), path); });
    connect(m_testLoader, &LoadController::finished, this,
            [this](std::shared_ptr<const Run> run, const QString& path) { setTestRun(std::move(run), path); });
}

void MainWindow::openRun(const QString& path)
{
    showStatus(tr("Loading %1…").arg(QDir::toNativeSeparators(path)), 0);
    m_loader->start(path);
}

void MainWindow::openComparison(const QString& path)
{
    showStatus(tr("Loading %1 to compare…").arg(QDir::toNativeSeparators(path)), 0);
    m_testLoader->start(path);
}

void MainWindow::setTestRun(std::shared_ptr<const Run> run, const QString& path)
{
    m_progress->hide();
    m_session->setTestRun(run, path);
    if (QDockWidget* diff = m_docks.value(QStringLiteral("diff"))) {
        diff->show();
        diff->raise();
    }
    showStatus(tr("Comparing %1 with %2 (%3)")
                   .arg(m_session->label(RunSide::Control), m_session->label(RunSide::Test),
                        fmt::count(qint64(run->ranks.size()), "rank", "ranks")));
}

void MainWindow::showRunState()
{
    updateComparison();  // the run shown is the control again; the Show box must say so
    updateSelectors();
    showSelectedRanks();
    updateTitle();
    updateBanner();
}

void MainWindow::setRun(std::shared_ptr<const Run> run, const QString& path)
{
    m_runBeforeLoad.reset();
    m_progress->hide();
    m_session->setRun(run, path);
    showRunState();
    QDockWidget* issues = m_docks.value(QStringLiteral("issues"));
    if (issues && (!run->errors.empty() || run->ranks.empty())) {
        issues->show();
        issues->raise();
    }
    const QString ranks = fmt::count(qint64(run->ranks.size()), "rank", "ranks");
    if (run->ranks.empty())
        showStatus(bannerText(), 0);
    else if (isSampleRun(path))
        showStatus(tr("Opened the bundled sample run (%1, synthetic). Open your own with Ctrl+O or drop a folder.").arg(ranks), 0);
    else
        showStatus(tr("Opened %1: %2").arg(QDir::toNativeSeparators(path), ranks));
    if (!isSampleRun(path) && !run->ranks.empty())
        addRecent(path);
    emit runChanged();
}

void MainWindow::showPartialRun(std::shared_ptr<const Run> run, const QString& path)
{
    // What was open before the load comes back if the load is cancelled (a cancelled load is
    // discarded whole); the session itself only ever holds the newest snapshot.
    if (!m_runBeforeLoad)
        m_runBeforeLoad = RunBeforeLoad{m_session->controlRun(), m_session->controlPath(), m_session->testRun(),
                                        m_session->testPath()};
    const qint64 ranks = qint64(run->ranks.size());
    const qint64 toGo = qint64(run->filesStillLoading);
    m_session->setRun(std::move(run), path);
    showRunState();
    showStatus(tr("Loading %1: showing %2 read so far, %3 to go")
                   .arg(QDir::toNativeSeparators(path), fmt::count(ranks, "rank", "ranks"),
                        fmt::count(toGo, "file", "files")),
               0);
    emit partialRunShown();
}

void MainWindow::restoreRunBeforeLoad()
{
    if (!m_runBeforeLoad)
        return;
    const RunBeforeLoad before = std::move(*m_runBeforeLoad);
    m_runBeforeLoad.reset();
    m_session->setRun(before.control, before.controlPath);  // null: no run, as before the load
    if (before.test)
        m_session->setTestRun(before.test, before.testPath);
    showRunState();
}

QString MainWindow::partialNote(const AnalysisView& view) const
{
    // Single-run views show the shown run; the comparison compares the control with the test.
    std::shared_ptr<const Run> shown = m_session->run();
    if ((view.spec().follows & Follows::Comparison) && m_session->controlRun() && m_session->controlRun()->isPartial())
        shown = m_session->controlRun();
    if (!shown || !shown->isPartial())
        return {};
    const qint64 ranks = qint64(shown->ranks.size());
    return tr("partial: %1 of %2 ranks").arg(ranks).arg(ranks + qint64(shown->filesStillLoading));
}

void MainWindow::updateDockTitles()
{
    for (AnalysisView* v : std::as_const(m_views))
        if (QDockWidget* dock = m_docks.value(v->id())) {
            const QString note = partialNote(*v);
            dock->setWindowTitle(note.isEmpty() ? v->title() : tr("%1 (%2)").arg(v->title(), note));
        }
}

} // namespace kscope
