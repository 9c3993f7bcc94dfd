#pragma once

#include <qcustomplot.h>

#include <QHash>
#include <QMap>
#include <QStringList>

namespace kscope {

// A QCustomPlot with what every chart of the application shares: a title and a legend row above
// the axes, tooltips with exact values, click-to-select by key, a highlight band for the
// selection, wheel zoom on the value axis (Ctrl: key axis), reset view (double-click), and a
// context menu to export PNG/PDF. The draw*() functions (barplot.h, boxplot.h, histogramplot.h)
// fill it through the small API below.
class ChartView : public QCustomPlot {
    Q_OBJECT
public:
    explicit ChartView(const QString& exportName, QWidget* parent = nullptr);

    QString exportName() const { return m_exportName; }  // file stem for Export All
    QString title() const;

    // Drawing API for the draw*() functions.
    void clearChart(const QString& title, bool keyAxisIsX);
    void setPlottableTooltips(QCPAbstractPlottable* plottable, const QStringList& tooltips);
    void setKeyId(double key, int id) { m_keyIds.insert(key, id); }
    // A click on any bar of this plottable (a stacked segment's series) gives this id, not its key's.
    void setPlottableId(QCPAbstractPlottable* plottable, int id) { m_plottableIds.insert(plottable, id); }
    void showMessage(const QString& text);
    // Nothing to draw: no axes, no legend, only the message (no run, computing, no result).
    void showOnlyMessage(const QString& text);
    // A line under the axes for what the chart leaves out (gaps off a log axis, unreadable ranks).
    void setFootnote(const QString& text);
    QString footnote() const { return m_fullFootnote; }
    QString message() const { return m_message; }
    // Integer keys (ranks): a label on every key while the labels fit, else on round multiples.
    // Ticks at integer keys 0..keyCount-1, thinned to what fits; labels[k] names key k (a rank's
    // name), else the number.
    void setIntegerKeyTicks(int keyCount, const QStringList& labels = {});
    void setLegendVisible(bool visible);
    // Tall enough for this many labelled rows of a horizontal bar chart (never below the height
    // the view set first), so their labels do not run into each other.
    void fitKeyRows(int rows);
    // A colour scale beside the axes (for a colour map), labelled; removed by clearChart.
    QCPColorScale* showColorScale(const QString& label);
    void finishChart();  // remembers the view for reset, replots
    // Finishes a chart with nothing to plot: empty axes over these ranges, no legend, the message
    // in the middle.
    void finishEmpty(const QString& message, QCPRange xRange = {0, 1}, QCPRange yRange = {0, 1});

    void setHighlightedIds(const QList<int>& ids);
    // Keys whose data is incomplete (a rank read only up to an error): drawn hatched.
    void setMarkedIds(const QList<int>& ids);
    QList<int> markedIds() const { return m_markedIds; }
    QList<int> highlightedIds() const { return m_highlightedIds; }
    void resetView();
    // .pdf, or a raster image by suffix (PNG when none); on failure *error says why. Written to a
    // temporary file and renamed, never over a trace of the open runs.
    // The selection's highlight is left out unless withSelection (marks of partial ranks stay).
    bool exportImage(const QString& path, int width = 0, int height = 0, QString* error = nullptr,
                     bool withSelection = false);

signals:
    void idClicked(int id);
    void exported(const QString& path);  // from the context menu's export

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QString writeRaster(const QString& path, int width, int height);  // empty, or why not
    QString writePdf(const QString& path, int width, int height);
    void showContextMenu(const QPoint& pos);
    void exportWithDialog(bool pdf, bool askSize, bool withSelection = false);
    void updateHighlight();
    void updateTitleText(int forWidth = 0);         // 0: the widget's width
    void fitLegendColumns(int forWidth = 0);        // 0: the widget's width
    void applyKeyTickDensity(QSize forSize = {});  // invalid: the widget's size

    QString m_exportName;
    QCPTextElement* m_title = nullptr;
    QString m_fullTitle;
    QCPLayoutGrid* m_legendRow = nullptr;
    QCPTextElement* m_footnote = nullptr;
    QCPColorScale* m_colorScale = nullptr;
    int m_baseMinimumHeight = -1;
    QCPMarginGroup* m_colorScaleMargins = nullptr;
    QString m_fullFootnote;
    QString m_message;
    int m_integerKeys = 0;
    int m_integerKeyLabelWidth = 0;  // widest named tick
    bool m_keyAxisIsX = true;
    QHash<QCPAbstractPlottable*, QStringList> m_tooltips;
    QMap<double, int> m_keyIds;
    QHash<QCPAbstractPlottable*, int> m_plottableIds;
    QList<int> m_highlightedIds;
    QList<int> m_markedIds;
    QList<QCPItemRect*> m_bands;
    QCPRange m_homeKeyRange, m_homeValueRange;
    QPointF m_pressPos;
};

} // namespace kscope
