#pragma once

#include <QHash>
#include <QMainWindow>
#include <QPointer>

#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QToolBar;

namespace kscope {

struct Run;
class AnalysisView;
class ChartView;
class LoadController;
class LoadProgressWidget;
class RunSession;

// The application frame: menus, toolbar selectors, one dock per registered view (views/viewspec.h),
// the import-issues banner, background loading with progress and Cancel, drag and drop, saved
// layout. What is shown lives in the RunSession; this class only arranges and routes.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openRun(const QString& path);
    // File > Compare With...: loads a second run beside the open one.
    void openComparison(const QString& path);
    void openSampleRun();
    static QString sampleRunPath();

    RunSession* session() const { return m_session; }
    std::shared_ptr<const Run> run() const;
    bool isBusy() const;  // loading, slicing, or some view still waiting for a result
    LoadController* loader() const { return m_loader; }
    LoadController* comparisonLoader() const { return m_testLoader; }
    QList<AnalysisView*> views() const { return m_views; }
    AnalysisView* view(const QString& id) const;
    QDockWidget* dock(const QString& id) const { return m_docks.value(id); }
    QString bannerText() const;
    static QString aboutText();  // Help > About: version, Qt, the licences of what we link

    // File > Export All without dialogs: every chart as PNG and every table as CSV of the views
    // that show the current run, mode and step. Returns the files written; *errors gets "path: why"
    // for each file that could not be (a full disk, a read-only folder, a trace of the open run).
    QStringList exportAll(const QString& folder, QStringList* errors = nullptr);

signals:
    void runChanged();        // a whole run is open (loaded, or the sample)
    void partialRunShown();   // a progressive load's snapshot is on screen (Run::isPartial)
    void statusShown(const QString& message);  // every status-bar message (tests read them)

protected:
    // Dock tab bars appear as docks are tabified: each gets whole titles and scroll buttons.
    void childEvent(QChildEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViews();
    void createBanner();
    void createActions();
    void createToolBar();
    void restoreLayout();
    void raiseView(const QString& id);  // shown and in front of its tab stack
    void connectLoaders();
    void setRun(std::shared_ptr<const Run> run, const QString& path);
    void showPartialRun(std::shared_ptr<const Run> run, const QString& path);
    void restoreRunBeforeLoad();
    void showRunState();  // selectors, title, dock titles and banner after the session's run changed
    // "partial: 3 of 100 ranks" while the run a view shows is a load's snapshot; empty otherwise.
    QString partialNote(const AnalysisView& view) const;
    void updateDockTitles();
    void setTestRun(std::shared_ptr<const Run> run, const QString& path);
    void updateComparison();
    QString issuesSummary(const std::shared_ptr<const Run>& run) const;
    void updateSelectors();
    void showSelectedRanks();
    void updateTitle();
    void updateBanner();
    void raiseDrillTargets(AnalysisView* source, bool rank);
    void showStatus(const QString& message, int timeoutMs = 10000);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void openFolderDialog();
    void exportChartDialog();
    void exportTableDialog();
    void exportAllDialog();
    void about();
    ChartView* currentChart() const;
    bool isSampleRun(const QString& path) const;

    RunSession* m_session;
    LoadController* m_loader;
    LoadController* m_testLoader;
    LoadProgressWidget* m_progress;
    QLabel* m_selectedEvent;  // the event picked in any view, named in the status bar
    QList<AnalysisView*> m_views;
    QHash<QString, QDockWidget*> m_docks;  // by view id
    QMenu* m_viewMenu = nullptr;
    QByteArray m_defaultLayout;  // the docks as first laid out, for Reset Layout
    QMenu* m_recentMenu = nullptr;
    QToolBar* m_bannerBar = nullptr;
    QLabel* m_banner = nullptr;
    QComboBox* m_rankBox = nullptr;
    QComboBox* m_stepBox = nullptr;
    QLabel* m_sideLabel = nullptr;
    QComboBox* m_sideBox = nullptr;
    QList<QAction*> m_sideActions;
    QAction* m_closeComparison = nullptr;
    // What was open when a progressive load showed its first snapshot, put back on Cancel.
    struct RunBeforeLoad {
        std::shared_ptr<const Run> control;
        QString controlPath;
        std::shared_ptr<const Run> test;
        QString testPath;
    };
    std::optional<RunBeforeLoad> m_runBeforeLoad;
    QPointer<QWidget> m_lastView;  // the view last clicked: File > Export Chart preselects it
};

} // namespace kscope
