#pragma once

#include "panel.h"

class QTableView;

namespace kscope {

class IssuesModel;

// Import issues of the run: files that could not be read (with byte offset and reason), bad
// events per rank, warnings and skipped files. Double-click selects the row's rank.
class IssuesPanel : public Panel {
    Q_OBJECT
public:
    explicit IssuesPanel(SelectionModel* selection, QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run) override;
    QList<TableExport> tables() const override;
    IssuesModel* model() const { return m_model; }

private:
    QTableView* m_table;
    IssuesModel* m_model;
};

} // namespace kscope
