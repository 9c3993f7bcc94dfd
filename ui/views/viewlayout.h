#pragma once

// How every view lays out its page, one way: rows of captions and controls over one body that
// takes the rest of the dock, tabs and splitters of charts and tables.

#include <QString>
#include <Qt>

#include <initializer_list>
#include <utility>
#include <variant>

class QLabel;
class QLayout;
class QWidget;

namespace kscope {

// A caption never widens its dock: long text is cut, or wrapped when `wrap`.
void makeCaption(QLabel* label, bool wrap);

// An item of a control row: a widget, or a text that becomes a label.
struct RowItem {
    RowItem(QWidget* w) : widget(w) {}
    RowItem(const QString& label) : text(label) {}
    QWidget* widget = nullptr;
    QString text;
};
// A row of controls; its first widget (not a text) takes the spare width (a caption or a search
// field), unless `stretchAtEnd` leaves the spare width at the right instead.
QLayout* controlRow(QWidget* parent, std::initializer_list<RowItem> items, bool stretchAtEnd = false);

// Tabs: each page a widget and its title.
QWidget* tabPages(QWidget* parent, std::initializer_list<std::pair<QWidget*, QString>> pages);
// A splitter of these widgets; `stretch` gives each its share (empty: equal).
QWidget* splitOf(QWidget* parent, Qt::Orientation orientation, std::initializer_list<QWidget*> widgets,
                   std::initializer_list<int> stretch = {});

// What stands above a body: a row (a layout) or a widget.
using PagePart = std::variant<QWidget*, QLayout*>;
// `page`'s layout: the parts, then the body taking the rest, with the views' margins (4 px).
void setPage(QWidget* page, std::initializer_list<PagePart> head, QWidget* body);
// A widget holding the parts over the body, without margins (a table under its filter row).
QWidget* stackedBox(QWidget* parent, std::initializer_list<PagePart> head, QWidget* body);

} // namespace kscope
