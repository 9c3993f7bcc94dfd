#include "idlepanel.h"

#include "baradapters.h"
#include "chartview.h"
#include "csvtables.h"
#include "plots.h"
#include "selectionmodel.h"
#include "statsadapters.h"

#include "analysis/idletime.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace kscope {

IdlePanel::IdlePanel(SelectionModel* selection, QWidget* parent)
    : Panel(tr("Idle time"), selection, parent), m_rankLabel(new QLabel(this)),
      m_percent(new QCheckBox(tr("Percent"), this)), m_logBins(new QCheckBox(tr("Log-scale bins"), this)),
      m_streams(new ChartView(QStringLiteral("idle-time-streams"), this)),
      m_histogram(new ChartView(QStringLiteral("idle-time-histogram"), this))
{
    registerSlot(&m_idleJob);
    registerSlot(&m_histogramJob);
    m_percent->setChecked(true);
    m_percent->setToolTip(tr("Share of each stream's idle time; off: absolute microseconds"));
    m_logBins->setChecked(true);
    m_logBins->setToolTip(tr("Geometric bins on a log axis: gaps span microseconds to seconds"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_rankLabel);
    controls->addStretch(1);
    controls->addWidget(m_percent);
    controls->addWidget(m_logBins);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_streams);
    splitter->addWidget(m_histogram);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);

    connect(m_percent, &QCheckBox::toggled, this, &IdlePanel::redrawStreams);
    connect(m_logBins, &QCheckBox::toggled, this, &IdlePanel::analyseHistogram);
    connect(selection, &SelectionModel::ranksChanged, this, &IdlePanel::analyse);
    setRun(nullptr);
}

int IdlePanel::requestedRank() const
{
    if (!m_run || m_run->ranks.empty())
        return -1;
    const int selected = m_selection->rank();
    // No selection yet: the first rank, as HTA defaults to rank 0.
    return selected >= 0 && m_run->findRank(selected) ? selected : m_run->ranks.front().rank;
}

void IdlePanel::setRun(std::shared_ptr<const Run> run)
{
    m_run = std::move(run);
    analyse();
}

void IdlePanel::analyse()
{
    const int rank = requestedRank();
    if (rank < 0) {
        invalidateJobs();
        m_idle.reset();
        m_bins.reset();
        m_shownRank = -1;
        m_rankLabel->setText(tr("No run loaded"));
        drawBars(*m_streams, {.message = tr("No run loaded")});
        drawHistogram(*m_histogram, {.message = tr("No run loaded")});
        return;
    }
    if (rank == m_shownRank && m_idle && !m_idleJob.busy())
        return;
    m_rankLabel->setText(tr("<b>Rank %1</b> — computing…").arg(rank));
    const auto run = m_run;
    startJob(m_idleJob,
             [run, rank] {
                 IdleTimeOptions options;
                 options.htaCompat = run->htaCompat;
                 options.ranks = {rank};
                 return std::make_shared<const IdleTime>(idleTimeBreakdown(*run, options));
             },
             [this, rank](std::shared_ptr<const IdleTime> result) {
                 m_idle = std::move(result);
                 m_shownRank = rank;
                 m_rankLabel->setText(tr("<b>Rank %1</b> (select another in a chart or the toolbar)").arg(rank));
                 redrawStreams();
             });
    analyseHistogram();
}

void IdlePanel::analyseHistogram()
{
    const int rank = requestedRank();
    if (rank < 0)
        return;
    const auto run = m_run;
    const bool log = m_logBins->isChecked();
    startJob(m_histogramJob,
             [run, rank, log] {
                 IdleHistogramOptions options;
                 options.rank = rank;
                 options.logScale = log;
                 options.bins = 40;
                 return std::make_shared<const IdleHistogram>(idleHistogram(*run, options));
             },
             [this, rank, log](std::shared_ptr<const IdleHistogram> result) {
                 m_bins = result;
                 drawHistogram(*m_histogram, idleHistogramData(*result, rank, log));
             });
}

void IdlePanel::redrawStreams()
{
    if (m_idle)
        drawBars(*m_streams, idleStreamBars(*m_idle, m_shownRank, m_percent->isChecked()));
}

QList<ChartView*> IdlePanel::charts() const { return {m_streams, m_histogram}; }

QList<Panel::TableExport> IdlePanel::tables() const
{
    QList<TableExport> list;
    if (auto idle = m_idle)
        list.push_back({QStringLiteral("idle-time-rank%1").arg(m_shownRank), [idle] { return idleTable(*idle); }});
    if (auto bins = m_bins)
        list.push_back({QStringLiteral("idle-histogram-rank%1").arg(m_shownRank),
                        [bins] { return idleHistogramTable(*bins); }});
    return list;
}

} // namespace kscope
