#include "views/viewlayout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace kscope {

namespace {

void fill(QVBoxLayout* layout, std::initializer_list<PagePart> head, QWidget* body)
{
    for (const PagePart& part : head) {
        if (const auto* widget = std::get_if<QWidget*>(&part))
            layout->addWidget(*widget);
        else
            layout->addLayout(std::get<QLayout*>(part));
    }
    layout->addWidget(body, 1);
}

} // namespace

void makeCaption(QLabel* label, bool wrap)
{
    label->setWordWrap(wrap);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

QLayout* controlRow(QWidget* parent, std::initializer_list<RowItem> items, bool stretchAtEnd)
{
    auto* row = new QHBoxLayout;
    bool stretched = stretchAtEnd;
    for (const RowItem& item : items) {
        if (!item.widget) {
            row->addWidget(new QLabel(item.text, parent));
            continue;
        }
        row->addWidget(item.widget, stretched ? 0 : 1);
        stretched = true;
    }
    if (stretchAtEnd)
        row->addStretch(1);
    return row;
}

QWidget* tabPages(QWidget* parent, std::initializer_list<std::pair<QWidget*, QString>> pages)
{
    auto* tabs = new QTabWidget(parent);
    for (const auto& [page, title] : pages)
        tabs->addTab(page, title);
    return tabs;
}

QWidget* splitOf(QWidget* parent, Qt::Orientation orientation, std::initializer_list<QWidget*> widgets,
                   std::initializer_list<int> stretch)
{
    auto* splitter = new QSplitter(orientation, parent);
    for (QWidget* widget : widgets)
        splitter->addWidget(widget);
    int index = 0;
    for (int factor : stretch)
        splitter->setStretchFactor(index++, factor);
    return splitter;
}

void setPage(QWidget* page, std::initializer_list<PagePart> head, QWidget* body)
{
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    fill(layout, head, body);
}

QWidget* stackedBox(QWidget* parent, std::initializer_list<PagePart> head, QWidget* body)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    fill(layout, head, body);
    return box;
}

} // namespace kscope
