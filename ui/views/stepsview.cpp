// Step time per rank and ProfilerStep as a heat map (HTA's get_profiler_steps, with each step's
// CPU and GPU span per rank), with HTA's straggler heuristic: a click on a cell selects that rank
// and step everywhere.

#include "views/analysisview.h"

#include "common/format.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/plots.h"

#include "analysis/tables/patterntables.h"
#include "analysis/patterns/steps.h"
#include "model/trace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>
#include <map>

namespace kscope {

namespace {

const QString kSpan = QStringLiteral("span");  // "gpu" or "cpu"

class StepsView : public AnalysisView {
public:
    StepsView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)), m_span(new QComboBox(this)),
          m_chart(new ChartView(QStringLiteral("step-times"), this)),
          m_spans(new ResultTableView(QStringLiteral("step-spans"), this)),
          m_stragglers(new ResultTableView(QStringLiteral("stragglers"), this))
    {
        m_caption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        m_chart->setMinimumHeight(110);
        m_span->addItem(tr("GPU span"), QStringLiteral("gpu"));
        m_span->addItem(tr("CPU span"), QStringLiteral("cpu"));
        auto* top = new QHBoxLayout;
        top->addWidget(m_caption, 1);
        top->addWidget(m_span);
        auto* tabs = new QTabWidget(this);
        tabs->addTab(m_chart, tr("Step time"));
        tabs->addTab(m_spans, tr("Spans"));
        tabs->addTab(m_stragglers, tr("Stragglers"));
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(4, 4, 4, 4);
        layout->addLayout(top);
        layout->addWidget(tabs, 1);
        addChart(m_chart);
        addTableView(m_spans);
        addTableView(m_stragglers);
        connect(m_span, &QComboBox::activated, this, [this] { setOption(kSpan, m_span->currentData()); });
        // A cell is a rank and a step: select both (the step narrows every view to it).
        connect(m_chart, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
            if (m_stepNumbers.isEmpty() || m_rankRows.isEmpty())
                return;
            const int x = int(std::lround(m_chart->xAxis->pixelToCoord(event->position().x())));
            const int y = int(std::lround(m_chart->yAxis->pixelToCoord(event->position().y())));
            if (x < 0 || y < 0 || x >= m_stepNumbers.size() || y >= m_rankRows.size())
                return;
            const RankIndex rank = m_rankRows[y];
            const int step = m_stepNumbers[x];
            clickRank(rank);
            selection()->setStep(step);
        });
        refresh();
    }

protected:
    QList<AnalysisRequest> requests() const override
    {
        return {stepsRequest(), stragglersRequest()};
    }
    Request<ProfilerSteps> stepsRequest() const
    {
        // The whole run, whatever step is selected: the map is where a step is chosen.
        const std::shared_ptr<const Run> whole = session()->run();
        return analysisRequest("steps-of-whole-run", NoOptions{}, [whole](const Run&, NoOptions) { return profilerSteps(*whole); });
    }

    void present(const ResultSet& results) override
    {
        m_steps = results.share(stepsRequest());
        m_stragglerResult = results.share(stragglersRequest());
        const bool gpu = option(kSpan, QStringLiteral("gpu")) != QLatin1String("cpu");
        {
            const QSignalBlocker blocker(m_span);
            m_span->setCurrentIndex(gpu ? 0 : 1);
        }
        QList<int> stragglers;
        for (int r : m_stragglerResult->ranks)
            stragglers << r;
        // Rows and columns are the ranks and steps the analysis lists; cells its spans.
        std::map<int, int> column;
        std::map<RankIndex, int> row;
        m_stepNumbers.clear();
        m_rankRows.clear();
        for (int step : m_steps->steps) {
            column[step] = int(m_stepNumbers.size());
            m_stepNumbers << step;
        }
        for (const StepSpan& span : m_steps->spans)
            if (!row.count(span.rankIndex)) {
                row[span.rankIndex] = int(m_rankRows.size());
                m_rankRows << span.rankIndex;
            }
        const auto whole = session()->run();
        HeatMapData data;
        data.title = gpu ? tr("GPU time of each step per rank (ms)") : tr("CPU time of each step per rank (ms)");
        data.xLabel = tr("ProfilerStep");
        data.yLabel = tr("Rank");
        data.xKeys = QVector<double>(m_stepNumbers.begin(), m_stepNumbers.end());
        for (RankIndex rank : std::as_const(m_rankRows)) {
            data.yKeys << rankChartId(rank);
            const QString name = fmt::qstr(whole->rankName(rank));
            data.yLabels << (stragglers.contains(whole->at(rank).rank) ? tr("%1 ⚑").arg(name) : name);
        }
        data.values = QVector<double>(data.xKeys.size() * data.yKeys.size(), NAN);
        for (const StepSpan& span : m_steps->spans) {
            const auto c = column.find(span.step);
            if (c == column.end())
                continue;
            const double ms = (gpu ? (span.hasGpu() ? double(span.gpuNs()) : NAN) : double(span.cpuNs())) / 1e6;
            data.values[row[span.rankIndex] * data.xKeys.size() + c->second] = ms;
        }
        if (m_stepNumbers.isEmpty())
            data.message = m_steps->error.empty() ? tr("The run has no ProfilerStep") : fmt::qstr(m_steps->error);
        if (!stragglers.isEmpty())
            data.footnote = tr("⚑ potential straggler (HTA's late-start rule on %1)").arg(fmt::qstr(session()->run()->str(m_stragglerResult->kernel)));
        drawHeatMap(*m_chart, data);
        m_caption->setText(stragglers.isEmpty()
                               ? tr("No straggler found%1").arg(m_stragglerResult->error.empty() ? QString()
                                                                    : QStringLiteral(": ") + fmt::qstr(m_stragglerResult->error))
                               : tr("<b>Potential stragglers:</b> rank %1").arg(
                                     [&] { QStringList s; for (int r : stragglers) s << QString::number(r); return s.join(QStringLiteral(", ")); }()));
        m_spans->setTable(std::make_shared<Table>(stepSpansTable(*session()->run(), *m_steps)));
        m_stragglers->setTable(std::make_shared<Table>(stragglersTable(*session()->run(), *m_stragglerResult)));
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_steps.reset();
        m_stragglerResult.reset();
        m_stepNumbers.clear();
        m_rankRows.clear();
        m_caption->setText(message.size() < 60 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("step-spans"), stepSpansTable(*session()->run(), *m_steps)},
                {QStringLiteral("stragglers"), stragglersTable(*session()->run(), *m_stragglerResult)}};
    }

private:
    QLabel* m_caption;
    QComboBox* m_span;
    ChartView* m_chart;
    ResultTableView* m_spans;
    ResultTableView* m_stragglers;
    QList<int> m_stepNumbers;  // the heat map's columns
    QList<RankIndex> m_rankRows;  // its rows
    std::shared_ptr<const ProfilerSteps> m_steps;
    std::shared_ptr<const Stragglers> m_stragglerResult;
};

} // namespace

ViewSpec stepsViewSpec()
{
    return {.id = QStringLiteral("steps"),
            .title = QT_TRANSLATE_NOOP("kscope::AnalysisView", "Steps and stragglers"),
            .dockObjectName = "stepsDock",
            .create = createView<StepsView>(),
            .area = Qt::RightDockWidgetArea,
            .tabWith = QStringLiteral("idle"),
            .raised = false};
}

} // namespace kscope
