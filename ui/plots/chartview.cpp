#include "plots/chartview.h"

#include "plots/palette.h"

#include "common/filewriting.h"

#include <QBuffer>
#include <cmath>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QToolTip>

#include <filesystem>

namespace kscope {

ChartView::ChartView(const QString& exportName, QWidget* parent) : QCustomPlot(parent), m_exportName(exportName)
{
    setMinimumSize(200, 140);  // docks stack two or three charts; 1024x700 must still fit
    setFocusPolicy(Qt::ClickFocus);  // so File > Export Chart knows which chart was last used
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMouseTracking(true);
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, &ChartView::showContextMenu);
    // Clicks are resolved against plottables only: the selection band drawn over the bars is an
    // item, and QCustomPlot would hand it the click.
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) { m_pressPos = event->position(); });
    connect(this, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton || (event->position() - m_pressPos).manhattanLength() > 4)
            return;  // a drag, not a click
        int index = -1;
        QCPAbstractPlottable* plottable = plottableAt(event->position(), false, &index);
        if (!plottable || !plottable->interface1D() || index < 0 || index >= plottable->interface1D()->dataCount())
            return;
        const int id = m_plottableIds.contains(plottable)
                           ? m_plottableIds.value(plottable)
                           : m_keyIds.value(plottable->interface1D()->dataMainKey(index), -1);
        if (id >= 0)
            emit idClicked(id);
    });

    QFont font = this->font();
    font.setPointSizeF(9);
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setTickLabelFont(font);
        axis->setLabelFont(font);
        axis->grid()->setPen(QPen(QColor(225, 225, 230), 1));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }

    plotLayout()->insertRow(0);
    QFont titleFont = font;
    titleFont.setPointSizeF(10.5);
    titleFont.setBold(true);
    m_title = new QCPTextElement(this, QString(), titleFont);
    plotLayout()->addElement(0, 0, m_title);

    // Legend in its own row under the title: inside the axis rect it would hide 100 % bars.
    plotLayout()->insertRow(1);
    // The legend sits between two empty stretching elements: alone, its small maximum width would
    // cap the whole plot column (QCPLayoutGrid takes the smallest maximum of a column).
    m_legendRow = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, m_legendRow);
    axisRect()->insetLayout()->take(legend);
    m_legendRow->addElement(0, 0, new QCPLayoutElement(this));
    m_legendRow->addElement(0, 1, legend);
    m_legendRow->addElement(0, 2, new QCPLayoutElement(this));
    m_legendRow->setColumnStretchFactors({1.0, 0.001, 1.0});
    m_legendRow->setMargins(QMargins(0, 0, 0, 0));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(6);
    legend->setBorderPen(Qt::NoPen);
    legend->setFont(font);
    legend->setIconSize(14, 10);
    legend->setLayer(QStringLiteral("legend"));
    legend->setVisible(true);
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowStretchFactor(1, 0.001);
}

QString ChartView::title() const { return m_fullTitle; }

namespace {
constexpr int kColorScaleWidth = 90;  // a colour scale's bar, its tick labels and its label
} // namespace

void ChartView::updateTitleText(int forWidth)
{
    // A title wider than the chart would widen the layout past the widget and clip both ends.
    // A colour scale takes a column of its own beside the axes; the title and footnote rows
    // only have the axes' column.
    const int room = std::max(60, (forWidth > 0 ? forWidth : width()) - 24 - (m_colorScale ? kColorScaleWidth : 0));
    const QFontMetrics metrics(m_title->font());
    m_title->setText(metrics.elidedText(m_fullTitle, Qt::ElideMiddle, room));
    if (m_footnote)
        m_footnote->setText(QFontMetrics(m_footnote->font()).elidedText(m_fullFootnote, Qt::ElideRight, room));
}

void ChartView::setFootnote(const QString& text)
{
    m_fullFootnote = text;
    if (text.isEmpty() && m_footnote) {
        plotLayout()->remove(m_footnote);
        plotLayout()->simplify();
        m_footnote = nullptr;
    } else if (!text.isEmpty() && !m_footnote) {
        QFont font = this->font();
        font.setPointSizeF(8.5);
        m_footnote = new QCPTextElement(this, QString(), font);
        m_footnote->setTextColor(QColor(100, 100, 110));
        const int row = plotLayout()->rowCount();
        plotLayout()->insertRow(row);
        plotLayout()->addElement(row, 0, m_footnote);
        plotLayout()->setRowStretchFactor(row, 0.001);
    }
    updateTitleText();
}

namespace {

// Integer ticks named from a list (a rank's number, or number and file where two files claim it).
class NamedIntegerTicker : public QCPAxisTickerFixed {
public:
    explicit NamedIntegerTicker(QStringList labels) : m_labels(std::move(labels)) {}

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override
    {
        const int key = static_cast<int>(std::lround(tick));
        if (key >= 0 && key < m_labels.size())
            return m_labels[key];
        return QCPAxisTickerFixed::getTickLabel(tick, locale, formatChar, precision);
    }

private:
    QStringList m_labels;
};

} // namespace

void ChartView::setIntegerKeyTicks(int keyCount, const QStringList& labels)
{
    m_integerKeys = keyCount;
    m_integerKeyLabelWidth = 0;
    QCPAxis* keyAxis = m_keyAxisIsX ? xAxis : yAxis;
    const QFontMetrics metrics(keyAxis->tickLabelFont());
    for (const QString& label : labels)
        m_integerKeyLabelWidth = std::max(m_integerKeyLabelWidth, metrics.horizontalAdvance(label));
    auto ticker = labels.isEmpty() ? QSharedPointer<QCPAxisTickerFixed>::create()
                                   : QSharedPointer<QCPAxisTickerFixed>(new NamedIntegerTicker(labels));
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    keyAxis->setTicker(ticker);
    applyKeyTickDensity();
}

void ChartView::fitKeyRows(int rows)
{
    if (m_baseMinimumHeight < 0)
        m_baseMinimumHeight = minimumHeight();
    // Title, legend, value axis and its label take about 90 px; each row a label's height.
    const int row = QFontMetrics(yAxis->tickLabelFont()).height() + 3;
    setMinimumHeight(std::max(m_baseMinimumHeight, rows * row + 90));
}

void ChartView::applyKeyTickDensity(QSize forSize)
{
    if (m_integerKeys <= 0)
        return;
    QCPAxis* keyAxis = m_keyAxisIsX ? xAxis : yAxis;
    auto ticker = keyAxis->ticker().dynamicCast<QCPAxisTickerFixed>();
    if (!ticker)
        return;
    // Room for the widest label plus a gap per tick; QCustomPlot rounds the step to a multiple of 1.
    const QFontMetrics metrics(keyAxis->tickLabelFont());
    const int label = std::max(m_integerKeyLabelWidth, metrics.horizontalAdvance(QString::number(m_integerKeys))) + 10;
    // An export at another size: the axes grow or shrink by what the widget would.
    const QSize grow = forSize.isValid() ? forSize - size() : QSize(0, 0);
    const int room = m_keyAxisIsX ? std::max(1, axisRect()->width() + grow.width())
                                  : std::max(1, axisRect()->height() + grow.height());
    const int perLabel = m_keyAxisIsX ? label : metrics.height() + 4;
    ticker->setTickCount(std::max(2, std::min(m_integerKeys + 1, room / perLabel)));
}

// As many legend items per row as fit the chart's width (at most six), so no name is clipped.
void ChartView::fitLegendColumns(int forWidth)
{
    const QFontMetrics metrics(legend->font());
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            widest = std::max(widest, metrics.horizontalAdvance(item->plottable()->name()));
    const int itemWidth = widest + legend->iconSize().width() + legend->iconTextPadding() + 12;
    const int room = std::max(1, (forWidth > 0 ? forWidth : width()) - 24);
    const int columns = std::clamp(room / std::max(1, itemWidth), 1, 6);
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // rearranges the items already there
    }
}

void ChartView::resizeEvent(QResizeEvent* event)
{
    updateTitleText();
    fitLegendColumns(event->size().width());
    QCustomPlot::resizeEvent(event);
    applyKeyTickDensity();
}

QCPColorScale* ChartView::showColorScale(const QString& label)
{
    if (!m_colorScale) {
        int row = 0;
        for (int r = 0; r < plotLayout()->rowCount(); ++r)
            if (plotLayout()->element(r, 0) == axisRect())
                row = r;
        m_colorScale = new QCPColorScale(this);
        plotLayout()->addElement(row, 1, m_colorScale);
        plotLayout()->setColumnStretchFactor(1, 0.01);
        m_colorScale->setType(QCPAxis::atRight);
        m_colorScale->setBarWidth(14);
        // The scale's bar spans exactly the cells' height.
        m_colorScaleMargins = new QCPMarginGroup(this);
        axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, m_colorScaleMargins);
        m_colorScale->setMarginGroup(QCP::msTop | QCP::msBottom, m_colorScaleMargins);
    }
    m_colorScale->axis()->setLabel(label);
    updateTitleText();
    return m_colorScale;
}

void ChartView::clearChart(const QString& title, bool keyAxisIsX)
{
    if (m_colorScale) {
        axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, nullptr);
        plotLayout()->remove(m_colorScale);
        plotLayout()->simplify();
        m_colorScale = nullptr;
        delete m_colorScaleMargins;
        m_colorScaleMargins = nullptr;
    }
    clearPlottables();
    clearItems();
    m_bands.clear();
    m_tooltips.clear();
    m_keyIds.clear();
    m_plottableIds.clear();
    m_keyAxisIsX = keyAxisIsX;
    m_integerKeys = 0;
    m_markedIds.clear();
    m_message.clear();
    m_fullTitle = title;
    updateTitleText();
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setLabel(QString());
        axis->setVisible(true);
    }
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    setLegendVisible(true);
}

void ChartView::setPlottableTooltips(QCPAbstractPlottable* plottable, const QStringList& tooltips)
{
    m_tooltips.insert(plottable, tooltips);
}

void ChartView::showOnlyMessage(const QString& text)
{
    clearChart(QString(), true);
    setFootnote(QString());
    for (QCPAxis* axis : {xAxis, yAxis})
        axis->setVisible(false);
    setLegendVisible(false);
    showMessage(text);
    finishChart();
}

void ChartView::showMessage(const QString& text)
{
    m_message = text;
    auto* label = new QCPItemText(this);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.5, 0.5);
    label->setPositionAlignment(Qt::AlignCenter);
    label->setText(text);
    label->setColor(QColor(110, 110, 120));
    label->setClipToAxisRect(false);
}

void ChartView::setLegendVisible(bool visible)
{
    legend->setVisible(visible);
    // A hidden element still takes its row's height: take the whole row out instead.
    const bool inLayout = plotLayout()->hasElement(1, 0) && plotLayout()->element(1, 0) == m_legendRow;
    if (visible && !inLayout) {
        plotLayout()->insertRow(1);
        plotLayout()->addElement(1, 0, m_legendRow);
        plotLayout()->setRowStretchFactor(1, 0.001);
    } else if (!visible && inLayout) {
        plotLayout()->take(m_legendRow);
        plotLayout()->simplify();
    }
}

void ChartView::finishChart()
{
    QCPAxis* keyAxis = m_keyAxisIsX ? xAxis : yAxis;
    QCPAxis* valueAxis = m_keyAxisIsX ? yAxis : xAxis;
    m_homeKeyRange = keyAxis->range();
    m_homeValueRange = valueAxis->range();
    fitLegendColumns();
    updateHighlight();
    replot();
}

void ChartView::finishEmpty(const QString& message, QCPRange xRange, QCPRange yRange)
{
    setLegendVisible(false);
    xAxis->setRange(xRange);
    yAxis->setRange(yRange);
    showMessage(message);
    finishChart();
}

void ChartView::setHighlightedIds(const QList<int>& ids)
{
    m_highlightedIds = ids;
    updateHighlight();
    replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::setMarkedIds(const QList<int>& ids)
{
    m_markedIds = ids;
    updateHighlight();
    replot(QCustomPlot::rpQueuedReplot);
}

void ChartView::updateHighlight()
{
    for (QCPItemRect* band : std::as_const(m_bands))
        removeItem(band);
    m_bands.clear();
    for (auto it = m_keyIds.cbegin(); it != m_keyIds.cend(); ++it) {
        const bool marked = m_markedIds.contains(it.value());
        if (!m_highlightedIds.contains(it.value()) && !marked)
            continue;
        auto* band = new QCPItemRect(this);
        // Over the bars, translucent and outlined: under them a full-height bar would hide it.
        band->setLayer(QStringLiteral("main"));
        if (marked && !m_highlightedIds.contains(it.value())) {
            band->setPen(Qt::NoPen);
            band->setBrush(QBrush(QColor(40, 40, 50, 150), Qt::BDiagPattern));
        } else {
            band->setPen(QPen(palette::selectionOutline(), 2.0));
            band->setBrush(marked ? QBrush(QColor(40, 40, 50, 150), Qt::BDiagPattern) : QBrush(palette::selectionBand()));
        }
        const double key = it.key();
        // Key in plot coordinates, the whole value extent in axis-rect ratio.
        for (QCPItemPosition* p : {band->topLeft, band->bottomRight}) {
            if (m_keyAxisIsX) {
                p->setTypeX(QCPItemPosition::ptPlotCoords);
                p->setTypeY(QCPItemPosition::ptAxisRectRatio);
            } else {
                p->setTypeX(QCPItemPosition::ptAxisRectRatio);
                p->setTypeY(QCPItemPosition::ptPlotCoords);
            }
        }
        if (m_keyAxisIsX) {
            band->topLeft->setCoords(key - 0.5, 0);
            band->bottomRight->setCoords(key + 0.5, 1);
        } else {
            band->topLeft->setCoords(0, key + 0.5);
            band->bottomRight->setCoords(1, key - 0.5);
        }
        m_bands.push_back(band);
    }
}

void ChartView::resetView()
{
    QCPAxis* keyAxis = m_keyAxisIsX ? xAxis : yAxis;
    QCPAxis* valueAxis = m_keyAxisIsX ? yAxis : xAxis;
    keyAxis->setRange(m_homeKeyRange);
    valueAxis->setRange(m_homeValueRange);
    replot();
}

bool ChartView::exportImage(const QString& path, int width, int height, QString* error, bool withSelection)
{
    QString reason = overwriteRefusal(path);
    // What the user clicked on screen is not part of the chart's answer.
    const QList<int> highlighted = m_highlightedIds;
    if (!withSelection && !highlighted.isEmpty()) {
        m_highlightedIds.clear();
        updateHighlight();
    }
    // Title, footnote and key ticks were fitted to the widget; an export may be wider (a report
    // labels every rank and keeps its footnotes whole).
    const QSize exportSize(width > 0 ? width : this->width(), height > 0 ? height : this->height());
    updateTitleText(exportSize.width());
    applyKeyTickDensity(exportSize);
    if (reason.isEmpty())
        reason = path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive) ? writePdf(path, width, height)
                                                                            : writeRaster(path, width, height);
    updateTitleText();
    applyKeyTickDensity();
    if (!withSelection && !highlighted.isEmpty()) {
        m_highlightedIds = highlighted;
        updateHighlight();
    }
    replot(rpQueuedReplot);
    if (!reason.isEmpty() && error)
        *error = QStringLiteral("%1: %2").arg(path, reason);
    return reason.isEmpty();
}

QString ChartView::writeRaster(const QString& path, int width, int height)
{
    // Encoded in memory, then written as every export is: a full or read-only disk leaves no
    // half-written image behind.
    QByteArray format = QFileInfo(path).suffix().toUpper().toLatin1();
    if (format.isEmpty())
        format = "PNG";
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!toPixmap(width, height, 1.0).save(&buffer, format.constData()))
        return tr("cannot encode the chart as %1").arg(QString::fromLatin1(format));
    QString error;
    return writeFileAtomically(path, bytes, &error) ? QString() : error.mid(path.size() + 2);
}

QString ChartView::writePdf(const QString& path, int width, int height)
{
    // QCustomPlot writes PDFs only to a file name: a temporary one beside the target, renamed over it.
    const QFileInfo target(path);
    const QString temp = target.dir().filePath(QStringLiteral(".%1.tmp-%2").arg(target.fileName()).arg(QCoreApplication::applicationPid()));
    if (!savePdf(temp, width, height)) {
        QFile::remove(temp);
        return tr("cannot write into %1").arg(QDir::toNativeSeparators(target.absolutePath()));
    }
    std::error_code ec;
    std::filesystem::rename(temp.toStdString(), path.toStdString(), ec);
    if (ec) {
        QFile::remove(temp);
        return QString::fromStdString(ec.message());
    }
    return {};
}

void ChartView::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    int index = -1;
    QCPAbstractPlottable* plottable = plottableAt(event->position(), false, &index);
    if (auto* map = qobject_cast<QCPColorMap*>(plottable)) {  // a colour map's cell: row * columns + column
        int column = 0, row = 0;
        map->data()->coordToCell(map->keyAxis()->pixelToCoord(event->position().x()),
                                 map->valueAxis()->pixelToCoord(event->position().y()), &column, &row);
        index = row * map->data()->keySize() + column;
    }
    const auto it = plottable ? m_tooltips.constFind(plottable) : m_tooltips.cend();
    if (it != m_tooltips.cend() && index >= 0 && index < it->size())
        QToolTip::showText(event->globalPosition().toPoint(), it->at(index), this);
    else
        QToolTip::hideText();
}

void ChartView::mouseDoubleClickEvent(QMouseEvent* event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    resetView();
}

void ChartView::wheelEvent(QWheelEvent* event)
{
    // The value axis zooms by default (compare heights); Ctrl zooms along ranks or streams.
    const bool keys = event->modifiers() & Qt::ControlModifier;
    const Qt::Orientation keyOrientation = m_keyAxisIsX ? Qt::Horizontal : Qt::Vertical;
    const Qt::Orientation valueOrientation = m_keyAxisIsX ? Qt::Vertical : Qt::Horizontal;
    axisRect()->setRangeZoom(keys ? keyOrientation : valueOrientation);
    QCustomPlot::wheelEvent(event);
}

void ChartView::leaveEvent(QEvent* event)
{
    QToolTip::hideText();
    QCustomPlot::leaveEvent(event);
}

void ChartView::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    menu.addAction(tr("Export PNG…"), this, [this] { exportWithDialog(false, false); });
    menu.addAction(tr("Export PDF…"), this, [this] { exportWithDialog(true, false); });
    menu.addAction(tr("Export PNG at Size…"), this, [this] { exportWithDialog(false, true); });
    if (!m_highlightedIds.isEmpty())
        menu.addAction(tr("Export PNG with the Selection…"), this, [this] { exportWithDialog(false, false, true); });
    menu.addSeparator();
    menu.addAction(tr("Reset View"), this, &ChartView::resetView);
    menu.exec(mapToGlobal(pos));
}

void ChartView::exportWithDialog(bool pdf, bool askSize, bool withSelection)
{
    int width = 0, height = 0;
    if (askSize) {
        bool ok = false;
        const QString size = QInputDialog::getText(this, tr("Export Size"), tr("Width x height in pixels:"),
                                                   QLineEdit::Normal, QStringLiteral("1920x1080"), &ok);
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^\\s*(\\d+)\\s*[xX×]\\s*(\\d+)\\s*$")).match(size);
        if (!ok || !m.hasMatch())
            return;
        width = m.captured(1).toInt();
        height = m.captured(2).toInt();
    }
    const QString filter = pdf ? tr("PDF (*.pdf)") : tr("PNG image (*.png)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"),
                                                exportSuggestion(m_exportName + (pdf ? ".pdf" : ".png")), filter);
    if (path.isEmpty())
        return;
    rememberExport(path);
    QString error;
    if (!exportImage(path, width, height, &error, withSelection))
        QMessageBox::warning(this, tr("Export Chart"), tr("Could not write %1").arg(error));
    else
        emit exported(path);
}

} // namespace kscope
