// Frequent kernel sequences under an operator (HTA's get_frequent_cuda_kernel_sequences) and
// the time per user annotation (get_gpu_user_annotation_breakdown), for the selected rank. The
// operator box completes from the run's op names; a click on a pattern selects its first kernel.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"

#include "analysis/patterns/annotations.h"
#include "analysis/patterns/kernelpatterns.h"
#include "analysis/tables/patterntables.h"
#include "model/trace.h"

#include <QCheckBox>
#include <QCompleter>
#include <QLabel>
#include <QPushButton>
#include <QLineEdit>
#include <QStringListModel>

namespace kscope {

namespace {

const QString kOperator = QStringLiteral("operator");
const QString kCpuAnnotations = QStringLiteral("cpuAnnotations");

class PatternsView : public AnalysisView {
public:
    PatternsView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)), m_operator(new QLineEdit(this)),
          m_showOnTimeline(timelineButton(tr("The chosen pattern's first occurrence on the timeline: its operator and kernels"),
                                          [this] { pickOccurrence(); })),
          m_cpu(new QCheckBox(tr("CPU annotations"), this)),
          m_patterns(new ResultTableView(QStringLiteral("kernel-patterns"), this)),
          m_annotations(new ResultTableView(QStringLiteral("annotations"), this)),
          m_names(new QStringListModel(this))
    {
        // Wrapped: the notes say why nothing was found, and must be read whole.
        makeCaption(m_caption, true);
        m_operator->setPlaceholderText(tr("Operator (empty: the one whose kernels repeat most)"));
        m_operator->setToolTip(tr("Every operator whose name contains this text; empty: the operator whose kernel "
                                  "sequence repeats most on the rank"));
        m_operator->setText(op());
        auto* completer = new QCompleter(m_names, this);
        completer->setCaseSensitivity(Qt::CaseInsensitive);
        completer->setFilterMode(Qt::MatchContains);
        m_operator->setCompleter(completer);
        m_cpu->setToolTip(tr("CPU-side user annotations (user_annotation) instead of GPU ones"));
        m_patterns->setWideColumn(QStringLiteral("pattern"));
        m_annotations->setWideColumn(QStringLiteral("name"));
        setPage(this, {controlRow(this, {tr("Operator:"), m_operator, m_cpu, m_showOnTimeline}), m_caption},
                tabPages(this, {{m_patterns, tr("Kernel sequences")}, {m_annotations, tr("User annotations")}}));
        addTableViews({m_patterns, m_annotations});
        connect(m_operator, &QLineEdit::editingFinished, this, [this] {
            const QString text = m_operator->text().trimmed();
            // The suggestion shown in the box is not the user's choice: it follows the next run.
            if (op().isEmpty() && m_patternsResult && m_patternsResult->suggested && text == fmt::qstr(m_patternsResult->operatorName))
                return;
            setOption(kOperator, text);
        });
        connect(m_cpu, &QCheckBox::toggled, this, [this](bool on) { setOption(kCpuAnnotations, on); });
        connect(m_patterns, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            m_chosen = index.row();
            m_showOnTimeline->setEnabled(chosenPattern() != nullptr);
            const quint32 kernel = index.data(kIdRole).toUInt();
            if (kernel != 0 && this->session()->slice())
                pickKernel(kernel, fmt::qstr(this->session()->slice()->str(StringId{kernel})));
        });
        refresh();
    }

protected:
    // Empty unless the user named one: the engine then suggests the operator.
    QString op() const { return option(kOperator, QString()); }
    bool cpu() const { return boolOption(kCpuAnnotations, false); }
    Request<KernelPatterns> patternsRequest() const
    {
        KernelPatternOptions o;
        o.htaCompat = htaCompat();
        o.operatorName = op().toStdString();
        o.ranks = {shownRank()};
        return analysisRequest("patterns", o, frequentKernelSequences);
    }
    Request<AnnotationBreakdown> annotationsRequest() const
    {
        AnnotationOptions o;
        o.htaCompat = htaCompat();
        o.cpu = cpu();
        o.ranks = {shownRank()};
        return analysisRequest("annotations", o, userAnnotationBreakdown);
    }

    QList<AnalysisRequest> requests() const override { return {patternsRequest(), annotationsRequest()}; }

    void present(const ResultSet& results) override
    {
        m_patternsResult = results.share(patternsRequest());
        m_annotationsResult = results.share(annotationsRequest());
        {
            const QSignalBlocker a(m_operator), b(m_cpu);
            m_operator->setText(m_patternsResult->suggested ? fmt::qstr(m_patternsResult->operatorName) : op());
            m_cpu->setChecked(cpu());
        }
        // Completion from the run's own operator names.
        QStringList names;
        for (const std::string& n : operatorNames(slice(), std::string(), 2000))
            names << fmt::qstr(n);
        m_names->setStringList(names);
        // A pattern row selects its first kernel (names[1]: names[0] is the operator).
        // Each row's first kernel, for the kernel views.
        QVector<quint32> ids;
        for (const KernelPattern* p : shownPatterns())
            ids.push_back(p->names.size() > 1 ? p->names[1].value : 0);
        const Table patterns = patternsTable(slice(), *m_patternsResult);
        m_patterns->setTable(std::make_shared<Table>(patterns), patterns.rows.size() == size_t(ids.size()) ? ids : QVector<quint32>{});
        m_chosen = -1;
        m_showOnTimeline->setEnabled(false);
        m_annotations->setTable(std::make_shared<Table>(annotationsTable(slice(), *m_annotationsResult)));
        QStringList notes;
        for (const std::string& n : m_patternsResult->notes)
            notes << fmt::qstr(n);
        if (!m_patternsResult->error.empty())
            notes << fmt::qstr(m_patternsResult->error);
        m_caption->setText(tr("<b>Rank %1</b> — %2%3")
                               .arg(shownRankName().toHtmlEscaped())
                               .arg(fmt::count(qint64(m_patternsResult->patterns.size()), "pattern", "patterns"))
                               .arg(notes.isEmpty() ? QString() : QStringLiteral(": ") + notes.join(QStringLiteral("; ")).toHtmlEscaped()));
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_patternsResult.reset();
        m_annotationsResult.reset();
        m_chosen = -1;
        m_showOnTimeline->setEnabled(false);
        m_caption->setText(message.size() < 60 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("kernel-patterns-%1").arg(shownRankTag()), patternsTable(slice(), *m_patternsResult)},
                {QStringLiteral("annotations-%1").arg(shownRankTag()), annotationsTable(slice(), *m_annotationsResult)}};
    }

private:
    // The patterns the table lists, in its order (patternsTable: every one in HTA's mode, each
    // rank's top ones otherwise).
    std::vector<const KernelPattern*> shownPatterns() const
    {
        std::vector<const KernelPattern*> shown;
        if (m_patternsResult)
            for (const KernelPattern& p : m_patternsResult->patterns)
                if (m_patternsResult->htaCompat || p.top)
                    shown.push_back(&p);
        return shown;
    }
    const KernelPattern* chosenPattern() const
    {
        const std::vector<const KernelPattern*> shown = shownPatterns();
        return m_chosen >= 0 && size_t(m_chosen) < shown.size() && !shown[size_t(m_chosen)]->roots.empty() ? shown[size_t(m_chosen)] : nullptr;
    }
    // The first occurrence: its operator selected, the span from it to its last GPU event's end.
    void pickOccurrence()
    {
        const KernelPattern* p = chosenPattern();
        if (!p || !slice().has(p->rankIndex))
            return;
        const EventTable& t = slice().at(p->rankIndex).events;
        const EventIndex root = p->roots.front();
        int64_t end = t.endNs(root);
        for (size_t k = 0; k < p->kernelCount() && k < p->kernels.size(); ++k)
            end = std::max(end, t.endNs(p->kernels[k]));
        pickOnTimeline(p->rankIndex, root, t.tsNs[root], end);
    }

    QLabel* m_caption;
    QLineEdit* m_operator;
    QPushButton* m_showOnTimeline;
    int m_chosen = -1;  // the table row chosen
    QCheckBox* m_cpu;
    ResultTableView* m_patterns;
    ResultTableView* m_annotations;
    QStringListModel* m_names;
    std::shared_ptr<const KernelPatterns> m_patternsResult;
    std::shared_ptr<const AnnotationBreakdown> m_annotationsResult;
};

} // namespace

ViewFactory patternsView() { return createView<PatternsView>(); }

} // namespace kscope
