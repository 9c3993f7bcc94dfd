#include "shell/mainwindow.h"

#include "common/format.h"
#include "common/filewriting.h"
#include "models/eventtablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "session/runsession.h"
#include "shell/loadcontroller.h"
#include "shell/loadprogresswidget.h"
#include "views/analysisview.h"
#include "views/viewspec.h"

#include "analysis/core/importissues.h"
#include "model/trace.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QTabBar>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

#include <set>

namespace kscope {

namespace {
constexpr int kMaxRecent = 8;
constexpr int kLayoutVersion = 2;  // bump when the default dock layout changes
const QString kRecentKey = QStringLiteral("recentRuns");
constexpr int kMultipleRanks = -2;  // the rank selector's entry for a Ctrl+click selection
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_session(new RunSession(this)), m_loader(new LoadController(this)),
      m_testLoader(new LoadController(this)), m_progress(new LoadProgressWidget(this)),
      m_selectedEvent(new QLabel(this))
{
    setWindowIcon(QIcon(QStringLiteral(":/kinetoscope/kinetoscope.svg")));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    m_loader->setHtaCompat(m_session->htaCompat());
    m_testLoader->setHtaCompat(m_session->htaCompat());
    createBanner();
    createViews();
    createActions();
    createToolBar();
    statusBar()->addPermanentWidget(m_selectedEvent);
    statusBar()->addPermanentWidget(m_progress);
    m_progress->hide();
    m_selectedEvent->setObjectName(QStringLiteral("selectedEvent"));
    connect(m_session->selection(), &SelectionModel::eventChanged, this, [this] {
        const std::optional<EventRef> event = m_session->selection()->event();
        m_selectedEvent->setText(event && run() ? eventSummary(*run(), *event) : QString());
    });

    connectLoaders();
    connect(m_session, &RunSession::htaCompatChanged, this, [this](bool on) {
        m_loader->setHtaCompat(on);
        m_testLoader->setHtaCompat(on);
        const QString test = m_session->testPath();
        if (!m_session->controlPath().isEmpty())
            openRun(m_session->controlPath());
        if (!test.isEmpty())
            openComparison(test);
    });
    connect(m_session->selection(), &SelectionModel::ranksChanged, this, &MainWindow::showSelectedRanks);
    connect(m_session->selection(), &SelectionModel::stepChanged, this, [this] {
        const int index = m_stepBox->findData(m_session->selection()->step());
        m_stepBox->setCurrentIndex(std::max(index, 0));
        const int step = m_session->selection()->step();
        if (step >= 0 && run())
            showStatus(tr("Showing ProfilerStep #%1 only; choose \"All steps\" for the whole run").arg(step));
    });
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        for (QWidget* w = now; w; w = w->parentWidget())
            if (qobject_cast<AnalysisView*>(w)) {
                m_lastView = w;
                return;
            }
    });
    updateTitle();
    resize(1280, 800);
    restoreLayout();
}

MainWindow::~MainWindow() = default;

QString MainWindow::sampleRunPath()
{
    // Installed: <prefix>/share/kinetoscope/sample-run beside <prefix>/bin; else the source tree.
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/kinetoscope/sample-run");
    if (QFileInfo::exists(installed))
        return QDir::cleanPath(installed);
    return QStringLiteral(KSCOPE_SAMPLE_RUN_DIR);
}

std::shared_ptr<const Run> MainWindow::run() const { return m_session->run(); }

AnalysisView* MainWindow::view(const QString& id) const
{
    for (AnalysisView* v : m_views)
        if (v->id() == id)
            return v;
    return nullptr;
}

void MainWindow::createViews()
{
    // One dock per registered view, placed as its spec says: run facts and per-rank charts on
    // the left, the kernel breakdown top right, the drill-down targets tabbed under it.
    for (const ViewSpec& spec : viewRegistry()) {
        AnalysisView* view = spec.create(spec, m_session, nullptr);
        auto* dock = new QDockWidget(view->title(), this);
        dock->setObjectName(QString::fromLatin1(spec.dockObjectName));
        dock->setWidget(view);
        dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
        m_views.push_back(view);
        m_docks.insert(spec.id, dock);
        connect(view, &AnalysisView::rankClicked, this, [this, view] { raiseDrillTargets(view, true); });
        connect(view, &AnalysisView::kernelPicked, this, [this, view] { raiseDrillTargets(view, false); });
        connect(view, &AnalysisView::viewRequested, this, &MainWindow::raiseView);
        // A dock behind another's tab stays "visible" as a widget; this signal tells (Qt's docs).
        connect(dock, &QDockWidget::visibilityChanged, view, &AnalysisView::setOnScreen);
        // A right-click export says where it went.
        for (ChartView* chart : view->charts())
            connect(chart, &ChartView::exported, this,
                    [this](const QString& path) { showStatus(tr("Wrote %1").arg(QDir::toNativeSeparators(path))); });
        for (ResultTableView* table : view->tableViews())
            connect(table, &ResultTableView::exported, this, [this](const QString& path, int rows) {
                showStatus(tr("Wrote %1 (%2)").arg(QDir::toNativeSeparators(path), fmt::count(rows, "row", "rows")));
            });
    }
    for (const ViewSpec& spec : viewRegistry())
        if (!m_docks.contains(spec.tabWith))
            addDockWidget(spec.area, m_docks.value(spec.id));
    for (const ViewSpec& spec : viewRegistry())
        if (QDockWidget* host = m_docks.value(spec.tabWith))
            tabifyDockWidget(host, m_docks.value(spec.id));
    for (const ViewSpec& spec : viewRegistry())
        if (spec.raised)
            m_docks.value(spec.id)->raise();
    const auto docks = [this](std::initializer_list<const char*> ids) {
        QList<QDockWidget*> list;
        for (const char* id : ids)
            if (QDockWidget* d = m_docks.value(QString::fromLatin1(id)))
                list << d;
        return list;
    };
    resizeDocks(docks({"overview", "temporal"}), {290, 410}, Qt::Vertical);
    resizeDocks(docks({"kernels", "idle"}), {350, 350}, Qt::Vertical);
    resizeDocks(docks({"overview", "kernels"}), {540, 740}, Qt::Horizontal);
}

void MainWindow::raiseDrillTargets(AnalysisView* source, bool rank)
{
    QDockWidget* sourceDock = m_docks.value(source->id());
    for (AnalysisView* target : std::as_const(m_views)) {
        const ViewSpec& spec = target->spec();
        if (target == source || !(rank ? spec.raiseOnRankClick : spec.raiseOnKernelPick))
            continue;
        QDockWidget* dock = m_docks.value(spec.id);
        // Raising a tab that shares the source's stack would hide what was just clicked.
        if (dock->isFloating() || tabifiedDockWidgets(sourceDock).contains(dock))
            continue;
        dock->raise();
    }
}

void MainWindow::createBanner()
{
    // The banner: one line about import problems, hidden when there are none.
    m_bannerBar = new QToolBar(tr("Import issues banner"), this);
    m_bannerBar->setObjectName(QStringLiteral("bannerBar"));
    m_bannerBar->setMovable(false);
    m_banner = new QLabel(m_bannerBar);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; color: #5c4400; padding: 3px 8px; }"));
    m_banner->setTextFormat(Qt::RichText);
    connect(m_banner, &QLabel::linkActivated, this, [this] {
        if (QDockWidget* issues = m_docks.value(QStringLiteral("issues"))) {
            issues->show();
            issues->raise();
        }
    });
    m_bannerBar->addWidget(m_banner);
    addToolBar(Qt::TopToolBarArea, m_bannerBar);
    m_bannerBar->hide();
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open Run Folder…"), this,
                                    &MainWindow::openFolderDialog);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open Trace &File…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace File"), QString(),
                                                          tr("Kineto traces (*.json *.json.gz);;All files (*)"));
        if (!path.isEmpty())
            openRun(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("Open &Sample Run"), this, &MainWindow::openSampleRun);
    file->addSeparator();
    file->addAction(tr("Compare &With…"), this, [this] {
        if (!m_session->controlRun()) {
            QMessageBox::information(this, tr("Compare With"), tr("Open the run to compare against first."));
            return;
        }
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Compare With Run Folder"));
        if (!folder.isEmpty())
            openComparison(folder);
    });
    m_closeComparison = file->addAction(tr("Close Co&mparison"), m_session, &RunSession::closeComparison);
    m_closeComparison->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("Export &Chart as PNG/PDF…"), this, &MainWindow::exportChartDialog)->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addAction(tr("Export &Table as CSV…"), this, &MainWindow::exportTableDialog);
    file->addAction(tr("Export &All…"), this, &MainWindow::exportAllDialog);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    // Each entry brings its view forward (a dock's own toggle would hide a view that is only
    // behind another tab); a dock's close button closes it.
    for (const ViewSpec& spec : viewRegistry())
        m_viewMenu->addAction(m_docks.value(spec.id)->windowTitle(), this, [this, id = spec.id] { raiseView(id); });
    m_viewMenu->addSeparator();
    QAction* htaCompat = m_viewMenu->addAction(tr("&HTA-Compatible Numbers"));
    htaCompat->setCheckable(true);
    htaCompat->setToolTip(tr("Reproduce HTA exactly: microsecond rounding, its percentages and quirks (reloads the run)"));
    htaCompat->setChecked(m_session->htaCompat());
    connect(htaCompat, &QAction::toggled, m_session, &RunSession::setHtaCompat);
    m_viewMenu->addAction(tr("Reset &Layout"), this, [this] {
        // The layout the window was built with: every dock back in its place, tab and size.
        for (QDockWidget* dock : std::as_const(m_docks)) {
            dock->setFloating(false);
            dock->show();
        }
        restoreState(m_defaultLayout, kLayoutVersion);
        for (const ViewSpec& spec : viewRegistry())
            if (spec.raised)
                m_docks.value(spec.id)->raise();
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Kinetoscope"), this, &MainWindow::about);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createToolBar()
{
    QToolBar* bar = new QToolBar(tr("Selection"), this);
    bar->setObjectName(QStringLiteral("selectionBar"));
    bar->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("Open…"), this, &MainWindow::openFolderDialog);
    bar->addSeparator();
    m_sideLabel = new QLabel(tr(" Show: "), bar);
    m_sideBox = new QComboBox(bar);
    m_sideBox->setObjectName(QStringLiteral("runSelector"));
    m_sideBox->setToolTip(tr("Which run the single-run views show; the Comparison view shows both"));
    m_sideActions = {bar->addWidget(m_sideLabel), bar->addWidget(m_sideBox)};
    for (QAction* action : std::as_const(m_sideActions))
        action->setVisible(false);
    bar->addWidget(new QLabel(tr(" Rank: "), bar));
    m_rankBox = new QComboBox(bar);
    m_rankBox->setObjectName(QStringLiteral("rankSelector"));
    m_rankBox->setMinimumContentsLength(8);
    m_rankBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_rankBox->setToolTip(tr("The rank the idle-time view and the kernels table show (Ctrl+click in a chart adds ranks)"));
    bar->addWidget(m_rankBox);
    bar->addWidget(new QLabel(tr("  Step: "), bar));
    m_stepBox = new QComboBox(bar);
    m_stepBox->setObjectName(QStringLiteral("stepSelector"));
    m_stepBox->setMinimumContentsLength(8);
    m_stepBox->setToolTip(tr("Narrow every view to one ProfilerStep (GPU work counts in the step that launched it)"));
    bar->addWidget(m_stepBox);
    addToolBar(Qt::TopToolBarArea, bar);
    insertToolBarBreak(m_bannerBar);

    connect(m_rankBox, &QComboBox::activated, this, [this](int index) {
        const int rank = m_rankBox->itemData(index).toInt();  // a RankIndex value, or -1 / kMultipleRanks
        if (rank == kMultipleRanks)
            return;
        if (rank < 0)
            m_session->selection()->setRanks({});
        else
            m_session->selection()->setRank(RankIndex{static_cast<uint32_t>(rank)});
        for (AnalysisView* v : std::as_const(m_views))
            if (v->spec().raiseOnRankClick)
                m_docks.value(v->id())->raise();
    });
    connect(m_stepBox, &QComboBox::activated, this,
            [this](int index) { m_session->selection()->setStep(m_stepBox->itemData(index).toInt()); });
    connect(m_sideBox, &QComboBox::activated, this, [this](int index) {
        m_session->setShownSide(RunSide(m_sideBox->itemData(index).toInt()));
        updateSelectors();
        updateTitle();
    });
    connect(m_session, &RunSession::comparisonChanged, this, &MainWindow::updateComparison);
    updateSelectors();
}

void MainWindow::showSelectedRanks()
{
    const QList<RankIndex> ranks = m_session->selection()->ranks();
    const int multi = m_rankBox->findData(kMultipleRanks);
    if (multi >= 0)
        m_rankBox->removeItem(multi);
    if (ranks.size() > 1) {
        QStringList names;
        const auto run = m_session->run();
        for (RankIndex r : ranks)
            names << (run && run->has(r) ? fmt::qstr(run->rankName(r)) : QString());
        m_rankBox->addItem(names.join(QStringLiteral(", ")), kMultipleRanks);
        m_rankBox->setCurrentIndex(m_rankBox->count() - 1);
        return;
    }
    const std::optional<RankIndex> rank = m_session->selection()->rank();
    m_rankBox->setCurrentIndex(std::max(m_rankBox->findData(rank ? int(rank->value) : -1), 0));
}

void MainWindow::raiseView(const QString& id)
{
    if (QDockWidget* target = m_docks.value(id)) {
        target->show();
        target->raise();
    }
}

void MainWindow::restoreLayout()
{
    m_defaultLayout = saveState(kLayoutVersion);  // before the saved one replaces it: Reset Layout
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
    m_bannerBar->setVisible(!bannerText().isEmpty());
}

void MainWindow::childEvent(QChildEvent* event)
{
    QMainWindow::childEvent(event);
    // Elided dock tabs read alike ("Over…" is Overview or Overlap): whole titles, scrolled when
    // they do not fit.
    if (event->type() == QEvent::ChildPolished)
        if (auto* tabs = qobject_cast<QTabBar*>(event->child())) {
            tabs->setElideMode(Qt::ElideNone);
            tabs->setUsesScrollButtons(true);
        }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_loader->cancel();
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile())
        return;
    event->acceptProposedAction();
    openRun(urls.front().toLocalFile());
}


void MainWindow::openSampleRun() { openRun(sampleRunPath()); }



void MainWindow::updateComparison()
{
    const bool comparing = m_session->testRun() != nullptr;
    if (!comparing && m_closeComparison->isEnabled())
        showStatus(tr("Comparison closed"));
    m_closeComparison->setEnabled(comparing);
    m_sideBox->clear();
    if (comparing) {
        m_sideBox->addItem(tr("Control: %1").arg(m_session->label(RunSide::Control)), int(RunSide::Control));
        m_sideBox->addItem(tr("Test: %1").arg(m_session->label(RunSide::Test)), int(RunSide::Test));
        m_sideBox->setCurrentIndex(int(m_session->shownSide()));
    }
    for (QAction* action : std::as_const(m_sideActions))
        action->setVisible(comparing);
    updateSelectors();
    updateTitle();
    updateBanner();
}

bool MainWindow::isBusy() const
{
    if (m_loader->isLoading() || m_testLoader->isLoading() || m_session->isBusy())
        return true;
    for (const AnalysisView* v : m_views)
        if (v->isBusy())
            return true;
    return false;
}

QString MainWindow::bannerText() const
{
    QString text = issuesSummary(m_session->controlRun());
    const QString test = issuesSummary(m_session->testRun());
    if (!test.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("; ")) + tr("compared run: %1").arg(test);
    return text;
}

QString MainWindow::issuesSummary(const std::shared_ptr<const Run>& run) const
{
    if (!run)
        return {};
    if (run->ranks.empty()) {
        const QString why = run->errors.empty() ? tr("no trace files (*.json, *.json.gz) found")
                                                : fmt::qstr(run->errors.front().message);
        return tr("No usable rank in %1: %2").arg(QDir::toNativeSeparators(fmt::qstr(run->folder.string())), why);
    }
    const ImportIssueCounts counts = countImportIssues(*run);
    QStringList parts;
    if (counts.errors + counts.partial > 0)
        parts << tr("%1 could not be read fully").arg(fmt::count(counts.errors + counts.partial, "file", "files"));
    if (counts.badEventRanks > 0)
        parts << tr("%1 had bad events").arg(fmt::count(counts.badEventRanks, "rank", "ranks"));
    if (counts.warnings > 0)
        parts << fmt::count(counts.warnings, "warning", "warnings");
    if (parts.isEmpty())
        return {};
    // What the first issue is, not only that there is one: "1 warning" alone sends every reader
    // to the panel.
    const std::vector<ImportIssueRow> rows = importIssueRows(*run);
    if (!rows.empty()) {
        const ImportIssueRow& first = rows.front();
        QString what = fmt::qstr(first.message);
        if (!first.file.empty())
            what = QStringLiteral("%1: %2").arg(fmt::qstr(first.file.filename().string()), what);
        parts.front() += QStringLiteral(" (%1%2)").arg(fmt::elided(what, 90),
                                                        rows.size() > 1 ? tr(", and more") : QString());
    }
    return parts.join(QStringLiteral("; ")) + tr(" — see Import issues");
}

void MainWindow::updateBanner()
{
    const QString banner = bannerText();
    m_banner->setText(banner.isEmpty() ? QString()
                                       : QStringLiteral("⚠ %1 &nbsp;<a href=\"#issues\">Show</a>").arg(banner.toHtmlEscaped()));
    m_bannerBar->setVisible(!banner.isEmpty());
}


void MainWindow::showStatus(const QString& message, int timeoutMs)
{
    statusBar()->showMessage(message, timeoutMs);
    emit statusShown(message);
}

bool MainWindow::isSampleRun(const QString& path) const
{
    return QFileInfo(path).canonicalFilePath() == QFileInfo(sampleRunPath()).canonicalFilePath();
}

void MainWindow::updateSelectors()
{
    m_rankBox->clear();
    m_stepBox->clear();
    m_stepBox->addItem(tr("All steps"), -1);
    const auto run = m_session->run();
    // No rank chosen: views of every rank show them all, views of one rank the first; say which.
    m_rankBox->addItem(run && !run->ranks.empty() ? tr("(none: %1 in one-rank views)").arg(fmt::qstr(run->rankName(RankIndex{0})))
                                                  : tr("(none)"),
                       -1);
    if (!run)
        return;
    std::set<int> steps;
    for (const RankTrace& rank : run->ranks) {
        m_rankBox->addItem(fmt::qstr(run->rankName(run->indexOf(rank))), int(run->indexOf(rank).value));
        for (const ProfilerStep& step : rank.steps)
            steps.insert(step.number);
    }
    for (int step : steps)
        m_stepBox->addItem(QString::number(step), step);
    m_stepBox->setCurrentIndex(std::max(m_stepBox->findData(m_session->selection()->step()), 0));
}

void MainWindow::updateTitle()
{
    updateDockTitles();
    const auto run = m_session->run();
    if (!run) {
        setWindowTitle(tr("Kinetoscope"));
        return;
    }
    const QString path = m_session->controlPath();
    QString name = isSampleRun(path) ? tr("bundled sample run") : QFileInfo(path).fileName();
    if (m_session->testRun())
        name = tr("%1 vs %2").arg(name, m_session->label(RunSide::Test));
    if (run->isPartial())
        name = tr("%1 (loading: %2 of %3 ranks)").arg(name).arg(run->ranks.size()).arg(run->ranks.size() + run->filesStillLoading);
    setWindowTitle(run->htaCompat ? tr("%1 [HTA-compatible] — Kinetoscope").arg(name) : tr("%1 — Kinetoscope").arg(name));
    setWindowFilePath(path);
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(QDir::toNativeSeparators(path), this, [this, path] { openRun(path); });
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(empty)"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [this] {
            QSettings().remove(kRecentKey);
            rebuildRecentMenu();
        });
    }
}

void MainWindow::openFolderDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Run Folder"));
    if (!folder.isEmpty())
        openRun(folder);
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Kinetoscope"), aboutText());
}

QString MainWindow::aboutText()
{
    return tr("<h3>Kinetoscope %1</h3><p>Analyses PyTorch profiler (Kineto) traces of distributed training runs: "
              "temporal, kernel, idle-time, overlap, launch, queue and bandwidth breakdowns per rank and the "
              "comparison of two runs, with the definitions of Holistic Trace Analysis (HTA).</p>"
              "<p>Built with Qt %2 (running on Qt %3).</p>"
              "<p>It uses: Qt 6 (LGPL-3.0), QCustomPlot 2.1 (GPL-3.0), simdjson (Apache-2.0), Eigen 3 (MPL-2.0), "
              "zlib (zlib licence), ISA-L (BSD-3-Clause), CLI11 (BSD-3-Clause). Because QCustomPlot is GPL-3.0, "
              "the application as distributed is under the GPL-3.0.</p>")
        .arg(QStringLiteral(KSCOPE_VERSION), QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()));
}

} // namespace kscope
