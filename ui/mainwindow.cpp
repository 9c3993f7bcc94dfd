#include "mainwindow.h"

#include "chartview.h"
#include "csvtables.h"
#include "idlepanel.h"
#include "issuesmodel.h"
#include "issuespanel.h"
#include "kernelbreakdownpanel.h"
#include "kerneldistpanel.h"
#include "loadcontroller.h"
#include "loadprogresswidget.h"
#include "overlappanel.h"
#include "overviewpanel.h"
#include "selectionmodel.h"
#include "temporalpanel.h"

#include "model/runslice.h"
#include "model/trace.h"

#include <QAction>
#include <QAbstractItemView>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTableView>
#include <QStatusBar>
#include <QToolBar>

#include <set>

namespace kscope {

namespace {
constexpr int kMaxRecent = 8;
constexpr int kLayoutVersion = 2;  // bump when the default dock layout changes
const QString kRecentKey = QStringLiteral("recentRuns");
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_selection(new SelectionModel(this)), m_loader(new LoadController(this)),
      m_progress(new LoadProgressWidget(this))
{
    setWindowIcon(QIcon(QStringLiteral(":/kinetoscope/kinetoscope.svg")));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    createPanels();
    createActions();
    createToolBar();
    statusBar()->addPermanentWidget(m_progress);
    m_progress->hide();

    connect(m_loader, &LoadController::started, this, [this](const QString& path) {
        m_progress->begin(path);
        m_progress->show();
    });
    connect(m_loader, &LoadController::progress, m_progress, &LoadProgressWidget::showStatus);
    connect(m_progress, &LoadProgressWidget::cancelRequested, m_loader, &LoadController::cancel);
    connect(m_loader, &LoadController::cancelled, this, [this](const QString& path) {
        m_progress->hide();
        statusBar()->showMessage(tr("Loading %1 cancelled; %2").arg(QDir::toNativeSeparators(path),
                                                                   m_run ? tr("the previous run stays open") : tr("no run open")),
                                 8000);
    });
    connect(m_loader, &LoadController::finished, this,
            [this](std::shared_ptr<const Run> run, const QString& path) { setRun(std::move(run), path); });
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        for (QWidget* w = now; w; w = w->parentWidget())
            if (qobject_cast<Panel*>(w)) {
                m_lastPanel = w;
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

void MainWindow::createPanels()
{
    m_overview = new OverviewPanel(m_selection);
    m_temporal = new TemporalPanel(m_selection);
    m_kernels = new KernelBreakdownPanel(m_selection);
    m_distribution = new KernelDistPanel(m_selection);
    m_idle = new IdlePanel(m_selection);
    m_overlap = new OverlapPanel(m_selection);
    m_issues = new IssuesPanel(m_selection);
    m_panels = {m_overview, m_temporal, m_kernels, m_distribution, m_idle, m_overlap, m_issues};
    static const char* const kObjectNames[] = {"overviewDock", "temporalDock", "kernelBreakdownDock",
                                               "kernelDistributionDock", "idleDock", "overlapDock", "issuesDock"};
    for (int i = 0; i < m_panels.size(); ++i) {
        auto* dock = new QDockWidget(m_panels[i]->title(), this);
        dock->setObjectName(QString::fromLatin1(kObjectNames[i]));
        dock->setWidget(m_panels[i]);
        dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable
                          | QDockWidget::DockWidgetFloatable);
        m_docks.push_back(dock);
    }
    // Default layout for 1280x800: run facts and per-rank charts on the left, the kernel
    // breakdown top right, and the drill-down targets (idle time of the selected rank,
    // distribution of the selected kernel) as tabs under it, raised when a click picks them.
    addDockWidget(Qt::LeftDockWidgetArea, m_docks[0]);
    addDockWidget(Qt::LeftDockWidgetArea, m_docks[1]);
    tabifyDockWidget(m_docks[0], m_docks[6]);
    tabifyDockWidget(m_docks[1], m_docks[5]);
    addDockWidget(Qt::RightDockWidgetArea, m_docks[2]);
    addDockWidget(Qt::RightDockWidgetArea, m_docks[4]);
    tabifyDockWidget(m_docks[4], m_docks[3]);
    for (int i : {0, 1, 2, 4})
        m_docks[i]->raise();
    resizeDocks({m_docks[0], m_docks[1]}, {290, 410}, Qt::Vertical);
    resizeDocks({m_docks[2], m_docks[4]}, {350, 350}, Qt::Vertical);
    resizeDocks({m_docks[0], m_docks[2]}, {540, 740}, Qt::Horizontal);

    const auto raiseDock = [this](int index) {
        if (!m_docks[index]->isFloating())
            m_docks[index]->raise();
    };
    connect(m_temporal->chart(), &ChartView::idClicked, this, [raiseDock] { raiseDock(4); });
    connect(m_overlap->chart(), &ChartView::idClicked, this, [raiseDock] { raiseDock(4); });
    connect(m_kernels->table(), &QAbstractItemView::clicked, this, [raiseDock] { raiseDock(3); });

    // The banner: one line about import problems, hidden when there are none.
    m_bannerBar = new QToolBar(tr("Import issues banner"), this);
    m_bannerBar->setObjectName(QStringLiteral("bannerBar"));
    m_bannerBar->setMovable(false);
    m_banner = new QLabel(m_bannerBar);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; color: #5c4400; padding: 3px 8px; }"));
    m_banner->setTextFormat(Qt::RichText);
    connect(m_banner, &QLabel::linkActivated, this, [this] {
        m_docks[6]->show();
        m_docks[6]->raise();
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
    file->addAction(tr("Export &Chart as PNG/PDF…"), this, &MainWindow::exportChartDialog)
        ->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addAction(tr("Export &Table as CSV…"), this, &MainWindow::exportTableDialog);
    file->addAction(tr("Export &All…"), this, &MainWindow::exportAllDialog);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : std::as_const(m_docks))
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    QAction* htaCompat = m_viewMenu->addAction(tr("&HTA-Compatible Numbers"));
    htaCompat->setCheckable(true);
    htaCompat->setToolTip(tr("Reproduce HTA exactly: microsecond rounding, its percentages and quirks (reloads the run)"));
    htaCompat->setChecked(QSettings().value(QStringLiteral("analysis/htaCompat"), false).toBool());
    m_loader->setHtaCompat(htaCompat->isChecked());
    connect(htaCompat, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("analysis/htaCompat"), on);
        m_loader->setHtaCompat(on);
        if (!m_runPath.isEmpty())
            openRun(m_runPath);
    });
    m_viewMenu->addAction(tr("Reset &Layout"), this, [this] {
        for (QDockWidget* dock : std::as_const(m_docks)) {
            dock->setFloating(false);
            dock->show();
        }
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
    bar->addWidget(new QLabel(tr(" Rank: "), bar));
    m_rankBox = new QComboBox(bar);
    m_rankBox->setMinimumContentsLength(8);
    m_rankBox->setToolTip(tr("The rank the idle-time panel and the kernels table show"));
    bar->addWidget(m_rankBox);
    bar->addWidget(new QLabel(tr("  Step: "), bar));
    m_stepBox = new QComboBox(bar);
    m_stepBox->setMinimumContentsLength(8);
    m_stepBox->setToolTip(tr("Narrow every panel to one ProfilerStep (GPU work counts in the step that launched it)"));
    bar->addWidget(m_stepBox);
    addToolBar(Qt::TopToolBarArea, bar);
    insertToolBarBreak(m_bannerBar);

    connect(m_rankBox, &QComboBox::activated, this, [this](int index) {
        m_selection->setRank(m_rankBox->itemData(index).toInt());
        m_docks[4]->raise();
    });
    connect(m_stepBox, &QComboBox::activated, this,
            [this](int index) { m_selection->setStep(m_stepBox->itemData(index).toInt()); });
    connect(m_selection, &SelectionModel::ranksChanged, this, [this] {
        const int index = m_rankBox->findData(m_selection->rank());
        m_rankBox->setCurrentIndex(std::max(index, 0));
    });
    connect(m_selection, &SelectionModel::stepChanged, this, [this] {
        const int index = m_stepBox->findData(m_selection->step());
        m_stepBox->setCurrentIndex(std::max(index, 0));
        applyStep();
    });
    updateSelectors();
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
    m_bannerBar->setVisible(!bannerText().isEmpty());
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

void MainWindow::openRun(const QString& path)
{
    statusBar()->showMessage(tr("Loading %1…").arg(QDir::toNativeSeparators(path)));
    m_loader->start(path);
}

void MainWindow::openSampleRun() { openRun(sampleRunPath()); }

bool MainWindow::isBusy() const
{
    if (m_loader->isLoading() || m_stepJob.busy())
        return true;
    for (const Panel* panel : m_panels)
        if (panel->isBusy())
            return true;
    return false;
}

QString MainWindow::bannerText() const { return m_issues->model()->summary(); }

QDockWidget* MainWindow::dockOf(Panel* panel) const
{
    const int index = static_cast<int>(m_panels.indexOf(panel));
    return index >= 0 ? m_docks[index] : nullptr;
}

void MainWindow::setRun(std::shared_ptr<const Run> run, const QString& path)
{
    m_progress->hide();
    m_run = std::move(run);
    m_runPath = path;
    m_stepJob.invalidate();
    m_selection->clear();
    showInPanels(m_run);
    updateSelectors();
    updateTitle();

    const QString banner = bannerText();
    m_banner->setText(banner.isEmpty() ? QString()
                                       : QStringLiteral("⚠ %1 &nbsp;<a href=\"#issues\">Show</a>").arg(banner.toHtmlEscaped()));
    m_bannerBar->setVisible(!banner.isEmpty());
    if (m_issues->model()->errorCount() > 0 || m_run->ranks.empty()) {
        m_docks[6]->show();
        m_docks[6]->raise();
    }
    const bool sample = QFileInfo(path).canonicalFilePath() == QFileInfo(sampleRunPath()).canonicalFilePath();
    if (sample)
        statusBar()->showMessage(tr("Opened the bundled sample run (%1 synthetic ranks). Open your own with Ctrl+O or drop a folder.")
                                     .arg(m_run->ranks.size()));
    else
        statusBar()->showMessage(tr("Opened %1: %2 ranks").arg(QDir::toNativeSeparators(path)).arg(m_run->ranks.size()), 10000);
    if (!sample)
        addRecent(path);
    emit runChanged();
}

void MainWindow::showInPanels(std::shared_ptr<const Run> run)
{
    m_shownRun = run;
    for (Panel* panel : std::as_const(m_panels))
        if (panel != m_issues || run == m_run)  // import issues always describe the whole run
            panel->setRun(run);
}

void MainWindow::applyStep()
{
    if (!m_run)
        return;
    const int step = m_selection->step();
    if (step < 0) {
        m_stepJob.invalidate();
        if (m_shownRun != m_run)
            showInPanels(m_run);
        return;
    }
    statusBar()->showMessage(tr("Narrowing every panel to ProfilerStep #%1…").arg(step));
    const auto run = m_run;
    runJob(this, m_stepJob, [run, step] { return std::shared_ptr<const Run>(sliceRunToStep(*run, step)); },
           [this, step](std::shared_ptr<const Run> slice) {
               showInPanels(std::move(slice));
               statusBar()->showMessage(tr("Showing ProfilerStep #%1 only; choose \"All steps\" for the whole run").arg(step));
           });
}

void MainWindow::updateSelectors()
{
    m_rankBox->clear();
    m_stepBox->clear();
    m_rankBox->addItem(tr("(none)"), -1);
    m_stepBox->addItem(tr("All steps"), -1);
    if (!m_run)
        return;
    std::set<int> steps;
    for (const RankTrace& rank : m_run->ranks) {
        m_rankBox->addItem(QString::number(rank.rank), rank.rank);
        for (const ProfilerStep& step : rank.steps)
            steps.insert(step.number);
    }
    for (int step : steps)
        m_stepBox->addItem(QString::number(step), step);
}

void MainWindow::updateTitle()
{
    if (!m_run) {
        setWindowTitle(tr("Kinetoscope"));
        return;
    }
    const bool sample = QFileInfo(m_runPath).canonicalFilePath() == QFileInfo(sampleRunPath()).canonicalFilePath();
    const QString name = sample ? tr("bundled sample run") : QFileInfo(m_runPath).fileName();
    setWindowTitle(m_run->htaCompat ? tr("%1 [HTA-compatible] — Kinetoscope").arg(name) : tr("%1 — Kinetoscope").arg(name));
    setWindowFilePath(m_runPath);
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

ChartView* MainWindow::currentChart() const
{
    if (auto* panel = qobject_cast<Panel*>(m_lastPanel.data()))
        for (ChartView* chart : panel->charts())
            if (chart->hasFocus() || panel->charts().size() == 1)
                return chart;
    return m_temporal->charts().value(0);
}

void MainWindow::exportChartDialog()
{
    QStringList names;
    QList<ChartView*> charts;
    for (Panel* panel : std::as_const(m_panels))
        for (ChartView* chart : panel->charts()) {
            names << tr("%1: %2").arg(panel->title(), chart->title());
            charts << chart;
        }
    bool ok = false;
    const QString choice = QInputDialog::getItem(this, tr("Export Chart"), tr("Chart:"), names,
                                                 std::max<int>(0, charts.indexOf(currentChart())), false, &ok);
    if (!ok)
        return;
    ChartView* chart = charts.value(names.indexOf(choice));
    QString filter = tr("PNG image (*.png)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), chart->exportName() + QStringLiteral(".png"),
                                                      tr("PNG image (*.png);;PDF (*.pdf)"), &filter);
    if (!path.isEmpty() && !chart->exportImage(path))
        QMessageBox::warning(this, tr("Export Chart"), tr("Could not write %1").arg(path));
}

void MainWindow::exportTableDialog()
{
    QStringList names;
    QList<Panel::TableExport> tables;
    for (Panel* panel : std::as_const(m_panels))
        for (const Panel::TableExport& table : panel->tables()) {
            names << tr("%1: %2").arg(panel->title(), table.name);
            tables << table;
        }
    if (tables.isEmpty()) {
        QMessageBox::information(this, tr("Export Table"), tr("No table to export yet: open a run first."));
        return;
    }
    bool ok = false;
    const QString choice = QInputDialog::getItem(this, tr("Export Table as CSV"), tr("Table:"), names, 0, false, &ok);
    if (!ok)
        return;
    const Panel::TableExport& table = tables[names.indexOf(choice)];
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Table as CSV"), table.name + QStringLiteral(".csv"),
                                                      tr("CSV (*.csv)"));
    if (!path.isEmpty() && !csv::write(table.build(), path))
        QMessageBox::warning(this, tr("Export Table"), tr("Could not write %1").arg(path));
}

QStringList MainWindow::exportAll(const QString& folder)
{
    QStringList written;
    const QDir dir(folder);
    for (Panel* panel : std::as_const(m_panels)) {
        for (ChartView* chart : panel->charts()) {
            const QString path = dir.filePath(chart->exportName() + QStringLiteral(".png"));
            if (chart->exportImage(path, std::max(chart->width(), 900), std::max(chart->height(), 500)))
                written << path;
        }
        for (const Panel::TableExport& table : panel->tables()) {
            const QString path = dir.filePath(table.name + QStringLiteral(".csv"));
            if (csv::write(table.build(), path))
                written << path;
        }
    }
    return written;
}

void MainWindow::exportAllDialog()
{
    if (!m_run) {
        QMessageBox::information(this, tr("Export All"), tr("Open a run first."));
        return;
    }
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export All Charts and Tables Into"));
    if (folder.isEmpty())
        return;
    const QStringList written = exportAll(folder);
    statusBar()->showMessage(tr("Wrote %1 files into %2").arg(written.size()).arg(QDir::toNativeSeparators(folder)), 10000);
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Kinetoscope"),
                       tr("<h3>Kinetoscope %1</h3><p>Analyses PyTorch profiler (Kineto) traces of distributed "
                          "training runs: temporal, kernel, idle-time and overlap breakdowns per rank, with "
                          "HTA's definitions.</p><p>Drop a run folder on the window or use File ▸ Open Run Folder.</p>")
                           .arg(QApplication::applicationVersion()));
}

} // namespace kscope
