// Step time per rank and ProfilerStep as a heat map (HTA's get_profiler_steps, with each step's
// CPU and GPU span per rank), with HTA's straggler heuristic: a click on a cell selects that rank
// and step everywhere.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/plots.h"
#include "plots/stepadapters.h"

#include "analysis/tables/patterntables.h"
#include "analysis/patterns/steps.h"
#include "model/trace.h"

#include <QComboBox>
#include <QLabel>

#include <cmath>

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
        makeCaption(m_caption, false);
        m_chart->setMinimumHeight(110);
        m_span->addItem(tr("GPU span"), QStringLiteral("gpu"));
        m_span->addItem(tr("CPU span"), QStringLiteral("cpu"));
        setPage(this, {controlRow(this, {m_caption, m_span})},
                tabPages(this, {{m_chart, tr("Step time")}, {m_spans, tr("Spans")}, {m_stragglers, tr("Stragglers")}}));
        addCharts({m_chart});
        addTableViews({m_spans, m_stragglers});
        connect(m_span, &QComboBox::activated, this, [this] { setOption(kSpan, m_span->currentData()); });
        // A cell is a rank and a step: select both (the step narrows every view to it).
        connect(m_chart, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
            const int x = int(std::lround(m_chart->xAxis->pixelToCoord(event->position().x())));
            const int y = int(std::lround(m_chart->yAxis->pixelToCoord(event->position().y())));
            if (!m_map.message.isEmpty() || x < 0 || y < 0 || x >= m_map.xKeys.size() || y >= m_map.yKeys.size())
                return;
            clickRankId(int(m_map.yKeys[y]));
            selection()->setStep(int(m_map.xKeys[x]));
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
        QStringList stragglers;
        for (int r : m_stragglerResult->ranks)
            stragglers << QString::number(r);
        m_map = stepTimeMap(*m_steps, *m_stragglerResult, *session()->run(), gpu);
        drawHeatMap(*m_chart, m_map);
        m_caption->setText(stragglers.isEmpty()
                               ? tr("No straggler found%1").arg(m_stragglerResult->error.empty() ? QString()
                                                                    : QStringLiteral(": ") + fmt::qstr(m_stragglerResult->error))
                               : tr("<b>Potential stragglers:</b> rank %1").arg(stragglers.join(QStringLiteral(", "))));
        m_spans->setTable(std::make_shared<Table>(stepSpansTable(*session()->run(), *m_steps)));
        m_stragglers->setTable(std::make_shared<Table>(stragglersTable(*session()->run(), *m_stragglerResult)));
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_steps.reset();
        m_stragglerResult.reset();
        m_map = {};
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
    HeatMapData m_map;  // as drawn: its columns are step numbers, its rows rank chart ids
    std::shared_ptr<const ProfilerSteps> m_steps;
    std::shared_ptr<const Stragglers> m_stragglerResult;
};

} // namespace

ViewFactory stepsView() { return createView<StepsView>(); }

} // namespace kscope
