#include "panel.h"

#include "csvtables.h"

#include <QAbstractItemView>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>

namespace kscope {

Panel::Panel(const QString& title, SelectionModel* selection, QWidget* parent)
    : QWidget(parent), m_selection(selection), m_title(title)
{
}

bool Panel::isBusy() const
{
    for (const JobSlot* slot : m_slots)
        if (slot->busy())
            return true;
    return false;
}

void Panel::invalidateJobs()
{
    for (JobSlot* slot : std::as_const(m_slots))
        slot->invalidate();
}

void Panel::addCsvMenu(QAbstractItemView* view, const QString& name, std::function<Table()> build)
{
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, [this, view, name, build](const QPoint& pos) {
        QMenu menu(view);
        QAction* exportAction = menu.addAction(tr("Export as CSV…"));
        exportAction->setEnabled(m_run != nullptr);
        if (menu.exec(view->viewport()->mapToGlobal(pos)) != exportAction)
            return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Table as CSV"), name + QStringLiteral(".csv"),
                                                          tr("CSV (*.csv)"));
        if (!path.isEmpty() && !csv::write(build(), path))
            QMessageBox::warning(this, tr("Export Table"), tr("Could not write %1").arg(path));
    });
}

} // namespace kscope
