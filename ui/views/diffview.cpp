// Comparison of two runs (File > Compare With...): HTA's compare_traces table of ops with their
// counts and total times in both runs, the largest changes as grouped bars, and per rank the
// temporal breakdown, overlap and kernels of both runs side by side. A click on an op selects
// that kernel in the run the other views show.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/diffadapters.h"
#include "plots/plots.h"

#include "analysis/tables/difftables.h"
#include "analysis/diff/tracediff.h"
#include "analysis/timeline/timelineindex.h"
#include "model/trace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QLineEdit>

namespace kscope {

namespace {

const QString kDevice = QStringLiteral("device");
const QString kShortNames = QStringLiteral("shortNames");
const QString kAllRanksSteps = QStringLiteral("allRanksAndSteps");

// Which rows of the ops table to show, by how an op changed between the runs.
enum class ChangeFilter { All, Added, Deleted, Changed, Unchanged };

class DiffView : public AnalysisView {
public:
    DiffView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)), m_headline(new QLabel(this)),
          m_notes(new QLabel(this)),
          m_device(new QComboBox(this)),
          m_shortNames(new QCheckBox(tr("Short names"), this)),
          m_allRanksSteps(new QCheckBox(tr("All ranks and steps"), this)), m_changes(new QComboBox(this)),
          m_search(new QLineEdit(this)), m_chart(new ChartView(QStringLiteral("comparison-changes"), this)),
          m_ops(new ResultTableView(QStringLiteral("compare-traces"), this)),
          m_temporal(new ResultTableView(QStringLiteral("diff-temporal"), this)),
          m_overlap(new ResultTableView(QStringLiteral("diff-overlap"), this)),
          m_kernels(new ResultTableView(QStringLiteral("diff-kernels"), this)),
          m_showOnTimeline(timelineButton(tr("The chosen op's first run in the run the other views show (an op only the other "
                                             "run has is not there)"),
                                          [this] {
                                              if (const std::optional<EventRef> first = firstNamed(m_chosenName))
                                                  pickOnTimeline(first->rank, first->event);
                                          }))
    {
        makeCaption(m_caption, true);  // what is compared, and the notes: on a line of its own
        makeCaption(m_headline, true);
        makeCaption(m_notes, true);
        m_notes->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_device->addItem(tr("CPU and GPU"), int(DiffDevice::All));
        m_device->addItem(tr("CPU ops"), int(DiffDevice::Cpu));
        m_device->addItem(tr("GPU kernels"), int(DiffDevice::Gpu));
        m_shortNames->setToolTip(tr("Group by HTA's shortened names (template arguments dropped)"));
        m_allRanksSteps->setToolTip(tr("Every rank and step both runs have, averaged per rank and step "
                                       "(HTA compares one rank and one step)"));
        for (const char* text : {"All ops", "Added", "Deleted", "Changed", "Unchanged"})
            m_changes->addItem(tr(text));
        m_search->setPlaceholderText(tr("Search ops…"));
        m_search->setClearButtonEnabled(true);
        // Op names as HTA lists them (CPU ops read badly shortened); the kernels' tab shortens.
        m_ops->setWideColumn(QStringLiteral("name"));
        m_ops->sortByChange(QStringLiteral("diff_duration (us)"));
        m_kernels->setNameColumn(QStringLiteral("name"));
        m_ops->proxy()->setFilterKeyColumn(0);
        m_chart->setMinimumHeight(140);  // eight labelled groups of three bars

        // Tabs rather than a split: in a dock the bars and a table each need the whole height.
        setPage(this, {m_caption, controlRow(this, {m_device, m_shortNames, m_allRanksSteps}, true)},
                tabPages(this, {{stackedBox(this, {m_headline}, m_chart), tr("Summary")},
                                {stackedBox(this, {controlRow(this, {m_search, m_changes, m_showOnTimeline})}, m_ops), tr("Ops")},
                                {m_temporal, tr("Per rank")},
                                {m_overlap, tr("Overlap")},
                                {m_kernels, tr("Kernels per rank")},
                                {m_notes, tr("Notes")}}));
        addCharts({m_chart});
        addTableViews({m_ops, m_temporal, m_overlap, m_kernels});

        connect(m_device, &QComboBox::activated, this, [this] { setOption(kDevice, m_device->currentData()); });
        connect(m_shortNames, &QCheckBox::toggled, this, [this](bool on) { setOption(kShortNames, on); });
        connect(m_allRanksSteps, &QCheckBox::toggled, this, [this](bool on) { setOption(kAllRanksSteps, on); });
        connect(m_search, &QLineEdit::textChanged, m_ops, &ResultTableView::setSearchText);
        connect(m_changes, &QComboBox::activated, this, &DiffView::applyChangeFilter);
        connect(m_ops, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            // The op's name in the run the other views show: its own string id there, if it ran.
            const QString name = index.siblingAtColumn(0).data(kFilterRole).toString();
            const auto shown = this->session()->run();
            const StringId id = shown && !name.isEmpty() ? shown->strings.find(name.toStdString()) : StringId{};
            m_chosenName = id;
            m_showOnTimeline->setEnabled(bool(firstNamed(id)));
            if (id)
                pickKernel(id.value, name);
        });
        refresh();
    }

protected:
    TraceDiffOptions diffOptions() const
    {
        TraceDiffOptions o;
        // The runs' own mode: during a reload the session's switch is ahead of them.
        o.htaCompat = session()->controlRun() && session()->controlRun()->htaCompat;
        o.device = DiffDevice(int(numberOption(kDevice, int(DiffDevice::All))));
        o.shortNames = boolOption(kShortNames, false);
        o.allRanks = o.allSteps = boolOption(kAllRanksSteps, false);
        // The selected rank and step where both runs have them; else HTA's first rank and step.
        const auto control = session()->controlRun(), test = session()->testRun();
        // Two runs pair their ranks by number (the label each file claims).
        const std::optional<RankIndex> selected = selection()->rank();
        const auto shown = session()->run();
        const int rank = selected && shown && shown->has(*selected) ? shown->at(*selected).rank : -1;
        if (!o.allRanks && rank >= 0 && control && test && !control->ranksNumbered({rank}).empty()
            && !test->ranksNumbered({rank}).empty())
            o.controlRanks = o.testRanks = {rank};
        const int step = selection()->step();
        if (!o.allSteps && step >= 0 && control && test) {
            const std::vector<int> controlSteps = runSteps(*control), testSteps = runSteps(*test);
            if (std::binary_search(controlSteps.begin(), controlSteps.end(), step)
                && std::binary_search(testSteps.begin(), testSteps.end(), step))
                o.controlSteps = o.testSteps = {step};
        }
        return o;
    }

    bool controlHtaCompat() const
    {
        const auto control = session()->controlRun();
        return control && control->htaCompat;
    }
    Request<TraceComparison> comparisonRequest() const
    {
        TraceDiffOptions o = diffOptions();
        o.htaCompat = controlHtaCompat();
        return kscope::comparisonRequest("diff", o, compareTraces);
    }
    Request<DiffSummary> summaryRequest() const
    {
        return kscope::comparisonRequest("diff-summary", DiffSummaryOptions{.htaCompat = controlHtaCompat()}, diffSummary);
    }

    QList<AnalysisRequest> requests() const override
    {
        if (!session()->testRun())
            return {};
        return {comparisonRequest(), summaryRequest()};
    }

    void present(const ResultSet& results) override
    {
        if (!session()->testRun()) {
            showMessage(tr("File ▸ Compare With… opens a second run to compare with this one"));
            return;
        }
        syncControls();
        m_comparison = results.share(comparisonRequest());
        m_summary = results.share(summaryRequest());
        const QString control = session()->label(RunSide::Control), test = session()->label(RunSide::Test);
        drawBars(*m_chart, opChangeBars(*m_comparison, control, test, 8));
        m_ops->setWideColumn(m_comparison->shortNames ? QStringLiteral("short_name") : QStringLiteral("name"));
        // HTA's own mode names the column without its unit.
        m_ops->sortByChange(m_comparison->htaCompat ? QStringLiteral("diff_duration") : QStringLiteral("diff_duration (us)"));
        m_ops->setRowFilter({});  // it reads the table being replaced
        m_ops->setTable(std::make_shared<Table>(compareTracesTable(*m_comparison, control.toStdString(), test.toStdString())));
        m_temporal->setTable(std::make_shared<Table>(diffTemporalTable(*m_summary, control.toStdString(), test.toStdString())));
        m_overlap->setTable(std::make_shared<Table>(diffOverlapTable(*m_summary, control.toStdString(), test.toStdString())));
        m_kernels->setTable(std::make_shared<Table>(diffKernelsTable(*m_summary, control.toStdString(), test.toStdString())));
        applyChangeFilter();
        m_caption->setText(captionText());
        m_caption->setToolTip(captionText());
        m_headline->setText(headlineText());
        showNotes();
    }

    void showMessage(const QString& message) override
    {
        m_ops->setRowFilter({});
        AnalysisView::showMessage(message);
        m_comparison.reset();
        m_summary.reset();
        m_caption->setText(message);
        m_headline->clear();
        m_notes->clear();
    }

    QList<TableExport> currentTables() const override
    {
        if (!m_comparison)
            return {};
        return {{QStringLiteral("compare-traces"), *m_ops->resultModel()->table()},
                {QStringLiteral("diff-temporal"), *m_temporal->resultModel()->table()},
                {QStringLiteral("diff-overlap"), *m_overlap->resultModel()->table()},
                {QStringLiteral("diff-kernels"), *m_kernels->resultModel()->table()}};
    }

private:
    // The first event drawn on the timeline with this name: on the shown rank if it has one.
    std::optional<EventRef> firstNamed(StringId name) const
    {
        const auto shown = session()->slice();
        if (!name || !shown)
            return std::nullopt;
        std::vector<RankIndex> order{shownRank()};
        for (uint32_t r = 0; r < shown->ranks.size(); ++r)
            if (RankIndex{r} != shownRank())
                order.push_back(RankIndex{r});
        for (const RankIndex rank : order) {
            if (!shown->has(rank))
                continue;
            const EventTable& t = shown->at(rank).events;
            for (size_t i = 0; i < t.size(); ++i)
                if (t.name[i] == name && drawnOnTimeline(t, i))
                    return EventRef{rank, EventIndex(i)};
        }
        return std::nullopt;
    }

    QString captionText() const
    {
        const auto list = [](const std::vector<int>& v) {
            QStringList parts;
            for (int x : v)
                parts << QString::number(x);
            return parts.isEmpty() ? QObject::tr("all") : parts.join(QStringLiteral(", "));
        };
        const auto side = [&](const std::vector<int>& ranks, const std::vector<int>& steps) {
            return steps.empty() ? tr("rank %1, whole trace").arg(list(ranks))
                                 : tr("rank %1, step %2").arg(list(ranks), list(steps));
        };
        // The ops compare HTA's selection (a rank and a step of each); the per-rank tabs compare
        // whole runs, or the steps both runs have: say both.
        const bool disjointSteps = m_summary->steps.empty() && !m_summary->controlOnlySteps.empty()
            && !m_summary->testOnlySteps.empty();
        const QString perRank = !m_summary->steps.empty()
            ? tr("the %n steps in both runs", nullptr, int(m_summary->steps.size()))
            : disjointSteps ? tr("whole runs (no ProfilerStep is in both)") : tr("whole runs");
        QString text = tr("Ops: <b>%1</b> (%2) vs <b>%3</b> (%4) · Summary and per rank: %5")
                           .arg(session()->label(RunSide::Control).toHtmlEscaped(),
                                side(m_comparison->controlRanks, m_comparison->controlSteps),
                                session()->label(RunSide::Test).toHtmlEscaped(),
                                side(m_comparison->testRanks, m_comparison->testSteps), perRank);
        if (!m_comparison->error.empty())
            text += QStringLiteral(" <span style='color:#7a5a00'>— %1</span>")
                        .arg(tr("No result: %1").arg(fmt::qstr(m_comparison->error).toHtmlEscaped()));
        return text;
    }

    // Every note of both analyses, as the CLI prints them, one per line.
    QStringList notes() const
    {
        QStringList notes;
        for (const std::string& note : m_comparison->notes)
            notes << fmt::qstr(note).toHtmlEscaped();
        for (const std::string& note : m_summary->notes)
            if (!notes.contains(fmt::qstr(note).toHtmlEscaped()))
                notes << fmt::qstr(note).toHtmlEscaped();
        return notes;
    }

    void showNotes()
    {
        const QStringList all = notes();
        m_notes->setText(all.isEmpty() ? tr("No notes.") : QStringLiteral("• ") + all.join(QStringLiteral("<br>• ")));
        auto* tabs = qobject_cast<QTabWidget*>(m_notes->parentWidget() ? m_notes->parentWidget()->parentWidget() : nullptr);
        if (tabs)
            tabs->setTabText(tabs->indexOf(m_notes), all.isEmpty() ? tr("Notes") : tr("Notes (%1)").arg(all.size()));
    }

    // The temporal change first: idle, compute and the rest of the GPU's time, summed over the
    // rank pairs, and the rank whose idle time moved most.
    QString headlineText() const
    {
        const TemporalChange change = temporalChange(*m_summary);
        if (change.rankPairs == 0)
            return tr("No temporal breakdown in both runs: see the notes above");
        const auto line = [](const QString& what, int64_t control, int64_t test) {
            const int64_t delta = test - control;
            QString text = QStringLiteral("<b>%1</b> %2 → %3 (%4%5")
                               .arg(what, fmt::duration(double(control)), fmt::duration(double(test)),
                                    delta > 0 ? QStringLiteral("+") : delta < 0 ? QStringLiteral("−") : QString(),
                                    fmt::duration(double(std::abs(delta))));
            if (control > 0 && delta != 0)
                text += QStringLiteral(", %1%2%")
                            .arg(delta > 0 ? QStringLiteral("+") : QStringLiteral("−"))
                            .arg(100.0 * double(std::abs(delta)) / double(control), 0, 'f', 1);
            return text + QStringLiteral(")");
        };
        const QString where = change.rankPairs == 1
            ? tr("rank %1").arg(change.largestIdleChangeControlRank)
            : tr("summed over %1 ranks").arg(change.rankPairs);
        QStringList parts = {line(tr("GPU idle"), change.control.idleNs, change.test.idleNs),
                             line(tr("compute"), change.control.computeNs, change.test.computeNs),
                             line(tr("communication, memory and sync"), change.control.nonComputeNs,
                                  change.test.nonComputeNs),
                             line(tr("GPU span"), change.control.spanNs, change.test.spanNs)};
        QString text = tr("%1 vs %2, %3: ").arg(session()->label(RunSide::Control).toHtmlEscaped(),
                                                session()->label(RunSide::Test).toHtmlEscaped(), where)
            + parts.join(QStringLiteral(" · "));
        if (change.rankPairs > 1 && change.largestIdleChangeNs != 0)
            text += tr("<br>Idle moved most on rank %1 (%2%3)")
                        .arg(change.largestIdleChangeControlRank)
                        .arg(change.largestIdleChangeNs > 0 ? QStringLiteral("+") : QStringLiteral("−"),
                             fmt::duration(double(std::abs(change.largestIdleChangeNs))));
        return text;
    }

    void syncControls()
    {
        const QSignalBlocker device(m_device), shortNames(m_shortNames), all(m_allRanksSteps);
        m_device->setCurrentIndex(std::max(0, m_device->findData(int(numberOption(kDevice, int(DiffDevice::All))))));
        m_shortNames->setChecked(boolOption(kShortNames, false));
        m_allRanksSteps->setChecked(boolOption(kAllRanksSteps, false));
    }

    void applyChangeFilter()
    {
        const auto filter = ChangeFilter(m_changes->currentIndex());
        // The filter shares the table it reads, so a later table cannot leave it dangling.
        const std::shared_ptr<const Table> table = m_ops->resultModel()->sharedTable();
        if (filter == ChangeFilter::All || !table || table->columns.size() < 7) {
            m_ops->setRowFilter({});
            return;
        }
        // Columns 1-4: control count and time, test count and time (HTA's layout).
        m_ops->setRowFilter([table, filter](int row) {
            const auto value = [&](size_t column) {
                const Cell& cell = table->rows[size_t(row)][column];
                if (const auto* d = std::get_if<double>(&cell))
                    return *d;
                if (const auto* i = std::get_if<int64_t>(&cell))
                    return double(*i);
                return 0.0;
            };
            const bool inControl = value(1) > 0, inTest = value(3) > 0;
            switch (filter) {
            case ChangeFilter::Added: return !inControl && inTest;
            case ChangeFilter::Deleted: return inControl && !inTest;
            case ChangeFilter::Changed: return inControl && inTest && (value(1) != value(3) || value(2) != value(4));
            case ChangeFilter::Unchanged: return inControl && inTest && value(1) == value(3) && value(2) == value(4);
            default: return true;
            }
        });
    }

    QLabel* m_caption;
    QLabel* m_headline;
    QLabel* m_notes;
    QComboBox* m_device;
    QCheckBox* m_shortNames;
    QCheckBox* m_allRanksSteps;
    QComboBox* m_changes;
    QLineEdit* m_search;
    ChartView* m_chart;
    ResultTableView* m_ops;
    ResultTableView* m_temporal;
    ResultTableView* m_overlap;
    ResultTableView* m_kernels;
    QPushButton* m_showOnTimeline;
    StringId m_chosenName;  // the op chosen in the table, in the shown run's strings
    std::shared_ptr<const TraceComparison> m_comparison;
    std::shared_ptr<const DiffSummary> m_summary;
};

} // namespace

ViewFactory diffView() { return createView<DiffView>(); }

} // namespace kscope
