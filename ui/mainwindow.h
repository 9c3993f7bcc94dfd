#pragma once

#include "backgroundjob.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QToolBar;

namespace kscope {

struct Run;
class ChartView;
class IdlePanel;
class IssuesPanel;
class KernelBreakdownPanel;
class KernelDistPanel;
class LoadController;
class LoadProgressWidget;
class OverlapPanel;
class OverviewPanel;
class Panel;
class SelectionModel;
class TemporalPanel;

// The application frame: menus, toolbar selectors, one dock per panel, the import-issues
// banner, background loading with progress and Cancel, drag and drop, saved layout.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openRun(const QString& path);
    void openSampleRun();
    static QString sampleRunPath();

    std::shared_ptr<const Run> run() const { return m_run; }
    // What the analysis panels show: the run, or its slice for the selected ProfilerStep.
    std::shared_ptr<const Run> shownRun() const { return m_shownRun; }
    bool isBusy() const;  // loading, or some panel still waiting for a result
    SelectionModel* selection() const { return m_selection; }
    LoadController* loader() const { return m_loader; }
    QList<Panel*> panels() const { return m_panels; }
    QString bannerText() const;
    QDockWidget* dockOf(Panel* panel) const;

    OverviewPanel* overviewPanel() const { return m_overview; }
    TemporalPanel* temporalPanel() const { return m_temporal; }
    KernelBreakdownPanel* kernelBreakdownPanel() const { return m_kernels; }
    KernelDistPanel* kernelDistPanel() const { return m_distribution; }
    IdlePanel* idlePanel() const { return m_idle; }
    OverlapPanel* overlapPanel() const { return m_overlap; }
    IssuesPanel* issuesPanel() const { return m_issues; }

    // File > Export All without dialogs: every chart as PNG and every table as CSV.
    QStringList exportAll(const QString& folder);

signals:
    void runChanged();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createPanels();
    void createActions();
    void createToolBar();
    void restoreLayout();
    void setRun(std::shared_ptr<const Run> run, const QString& path);
    void updateSelectors();
    // Shows every analysis panel the whole run, or the selected ProfilerStep's slice of it.
    void applyStep();
    void showInPanels(std::shared_ptr<const Run> run);
    void updateTitle();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void openFolderDialog();
    void exportChartDialog();
    void exportTableDialog();
    void exportAllDialog();
    void about();
    ChartView* currentChart() const;

    SelectionModel* m_selection;
    LoadController* m_loader;
    LoadProgressWidget* m_progress;
    QList<Panel*> m_panels;
    QList<QDockWidget*> m_docks;
    OverviewPanel* m_overview = nullptr;
    TemporalPanel* m_temporal = nullptr;
    KernelBreakdownPanel* m_kernels = nullptr;
    KernelDistPanel* m_distribution = nullptr;
    IdlePanel* m_idle = nullptr;
    OverlapPanel* m_overlap = nullptr;
    IssuesPanel* m_issues = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QToolBar* m_bannerBar = nullptr;
    QLabel* m_banner = nullptr;
    QComboBox* m_rankBox = nullptr;
    QComboBox* m_stepBox = nullptr;
    std::shared_ptr<const Run> m_run;
    std::shared_ptr<const Run> m_shownRun;  // m_run or the step slice the panels show
    JobSlot m_stepJob;
    QString m_runPath;
    QPointer<QWidget> m_lastPanel;  // the panel last clicked: File > Export Chart preselects it
};

} // namespace kscope
