// The event table itself (what HTA users get from t.get_trace(rank), and kinetoscope-cli events
// writes): the events of the selected rank in the shown step and time range, filtered by kind and
// by a regular expression on the name, in time order. A virtual model: millions of rows are fine.
// A click on a row selects that event (and a kernel's name in the kernel views); an event selected
// elsewhere (a critical-path segment) is shown as the current row when it is in the table.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/eventtablemodel.h"
#include "models/modelroles.h"

#include "analysis/operators/eventquery.h"
#include "model/trace.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>

namespace kscope {

namespace {

const QString kKind = QStringLiteral("kind");  // "" = every kind, else an EventClass name
const QString kName = QStringLiteral("name");  // regular expression on the name
constexpr size_t kExportRows = 100000;         // Export All writes this many; the CLI writes all

struct SelectedEvents {
    std::shared_ptr<const std::vector<EventIndex>> rows;
    size_t eventsOfRank = 0;
    std::string error;  // a bad regular expression
};

class EventsView : public AnalysisView {
public:
    EventsView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)), m_kind(new QComboBox(this)),
          m_name(new QLineEdit(this)), m_wholeRun(new QPushButton(tr("Whole time"), this)),
          m_table(new QTableView(this)), m_model(new EventTableModel(this))
    {
        makeCaption(m_caption, false);
        m_kind->addItem(tr("Every kind"), QString());
        for (EventClass c : {EventClass::Kernel, EventClass::CpuOp, EventClass::Runtime, EventClass::Memcpy, EventClass::Memset,
                             EventClass::Annotation, EventClass::Memory, EventClass::Other})
            m_kind->addItem(QString::fromLatin1(toString(c)), QString::fromLatin1(toString(c)));
        m_name->setPlaceholderText(tr("Name (regular expression)"));
        m_name->setClearButtonEnabled(true);
        m_wholeRun->setToolTip(tr("Forget the selected time span: every event of the step"));
        m_table->setModel(m_model);
        m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
        m_table->setSelectionMode(QAbstractItemView::SingleSelection);
        m_table->verticalHeader()->hide();
        m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
        m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
        m_table->setWordWrap(false);
        m_table->setMinimumHeight(60);
        setPage(this, {controlRow(this, {m_caption, m_kind, m_name, m_wholeRun})}, m_table);
        connect(m_kind, &QComboBox::activated, this, [this] { setOption(kKind, m_kind->currentData()); });
        connect(m_name, &QLineEdit::editingFinished, this, [this] { setOption(kName, m_name->text()); });
        // The clear button empties the field without finishing an edit: the filter goes at once.
        connect(m_name, &QLineEdit::textChanged, this, [this](const QString& text) {
            if (text.isEmpty() && !option(kName, QString()).isEmpty())
                setOption(kName, QString());
        });
        connect(m_wholeRun, &QPushButton::clicked, this, [this] { selection()->setTimeRange({}); });
        connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
            const RankTrace* rank = m_model->rank();
            if (!index.isValid() || !rank || m_showingSelection)
                return;
            const EventIndex e = m_model->eventAt(index.row());
            pickEvent(shownRank(), e);
            if (rank->events.kind[e] == EventKind::Kernel)
                pickKernel(rank->events.name[e].value, fmt::qstr(slice().str(rank->events.name[e])));
        });
        refresh();
    }

protected:
    EventFilter filter() const
    {
        EventFilter f;
        EventClass c;
        if (parseEventClass(option(kKind, QString()).toStdString(), c))
            f.classes = 1u << unsigned(c);
        f.nameRegex = option(kName, QString()).toStdString();
        const TimeRange range = selection()->timeRange();
        if (!range.isEmpty()) {
            f.fromNs = range.beginNs;
            f.toNs = range.endNs;
        }
        return f;
    }

    struct EventsOptions {
        RankIndex rank;
        EventFilter filter;
    };

    Request<SelectedEvents> eventsRequest() const
    {
        return analysisRequest("events", EventsOptions{shownRank(), filter()}, [](const Run& run, const EventsOptions& o) {
            SelectedEvents selected;
            if (!run.has(o.rank))
                return selected;
            const RankTrace* r = &run.at(o.rank);
            selected.eventsOfRank = r->events.size();
            if (EventMatcher matcher(run, o.filter); !matcher.error().empty()) {
                selected.error = matcher.error();
                return selected;
            }
            selected.rows = std::make_shared<const std::vector<EventIndex>>(selectEvents(run, *r, o.filter));
            return selected;
        });
    }

    QList<AnalysisRequest> requests() const override { return {eventsRequest()}; }

    void present(const ResultSet& results) override
    {
        m_result = results.share(eventsRequest());
        {
            const QSignalBlocker a(m_kind), b(m_name);
            m_kind->setCurrentIndex(std::max(0, m_kind->findData(option(kKind, QString()))));
            m_name->setText(option(kName, QString()));
        }
        m_wholeRun->setEnabled(!selection()->timeRange().isEmpty());
        // A model reset puts every column back to the default width: keep the ones shown.
        QVector<int> widths;
        for (int c = 0; c < m_model->columnCount(); ++c)
            widths << m_table->columnWidth(c);
        m_model->setRows(session()->slice(), shownRank(), m_result->rows);
        if (widths.size() == m_model->columnCount()) {
            for (int c = 0; c < widths.size(); ++c)
                m_table->setColumnWidth(c, widths[c]);
        }
        fitColumns(widths.size() == m_model->columnCount());
        const TimeRange range = selection()->timeRange();
        QString text;
        if (!m_result->error.empty())
            text = tr("Bad name filter: %1").arg(fmt::qstr(m_result->error));
        else
            text = tr("Rank %1: %2 of %3 events").arg(shownRankName()).arg(QLocale().toString(qint64(m_model->size()))).arg(QLocale().toString(qint64(m_result->eventsOfRank)));
        // Filters are kept across runs and steps: say which are on, so "0 of N" is never a riddle.
        QStringList filters;
        if (const QString name = option(kName, QString()); !name.isEmpty() && m_result->error.empty())
            filters << tr("name ~ \"%1\"").arg(fmt::elided(name, 30));
        if (const QString kind = option(kKind, QString()); !kind.isEmpty())
            filters << tr("kind %1").arg(kind);
        if (!filters.isEmpty())
            text += tr(" (filtered: %1)").arg(filters.join(QStringLiteral(", ")));
        if (!range.isEmpty())
            text += tr(" from %1 to %2").arg(fmt::micros(double(range.beginNs)), fmt::micros(double(range.endNs)));
        m_caption->setText(text);
        highlightSelection();
    }

    void highlightSelection() override
    {
        const EventIndex selected = selectedEventRow(shownRank());
        if (selected == kNoEvent || !m_model->rank())
            return;
        for (size_t row = 0; row < m_model->size(); ++row)
            if (m_model->eventAt(int(row)) == selected) {
                const QModelIndex index = m_model->index(int(row), 0);
                m_showingSelection = true;
                m_table->setCurrentIndex(index);
                m_showingSelection = false;
                m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
                return;
            }
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_result.reset();
        m_model->clear();
        m_caption->setText(message);
    }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("events-%1").arg(shownRankTag()), m_model->firstRows(kExportRows)}};
    }

private:
    // Every column wide enough for its header and the values of the first rows (numbers never cut);
    // the name gets room for most names. `growOnly`: widths the user chose only ever widen.
    void fitColumns(bool growOnly)
    {
        const QFontMetrics metrics(m_table->font());
        const int sample = int(std::min<size_t>(m_model->size(), 200));
        for (int c = 0; c < m_model->columnCount(); ++c) {
            const QString header = m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            const bool wide = header == QLatin1String("name") || header == QLatin1String("input dims");
            if (growOnly && wide)
                continue;  // wide text columns keep what the user chose
            int width = metrics.horizontalAdvance(header) + 16;
            if (header == QLatin1String("name"))
                width = std::max(width, metrics.averageCharWidth() * 48);
            else if (header == QLatin1String("input dims"))
                width = std::max(width, metrics.averageCharWidth() * 24);
            else
                for (int r = 0; r < sample; ++r)
                    width = std::max(width, metrics.horizontalAdvance(m_model->index(r, c).data().toString()) + 16);
            width = std::min(width, metrics.averageCharWidth() * 60);
            m_table->setColumnWidth(c, growOnly ? std::max(width, m_table->columnWidth(c)) : width);
        }
    }

    QLabel* m_caption;
    QComboBox* m_kind;
    QLineEdit* m_name;
    QPushButton* m_wholeRun;
    QTableView* m_table;
    EventTableModel* m_model;
    std::shared_ptr<const SelectedEvents> m_result;
    bool m_showingSelection = false;  // setting the current row for a selection made elsewhere
};

} // namespace

ViewFactory eventsView() { return createView<EventsView>(); }

} // namespace kscope
