#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace kscope {

struct LoadStatus;

// Status-bar strip shown while a run loads: ranks done, MB done, ETA, and Cancel.
class LoadProgressWidget : public QWidget {
    Q_OBJECT
public:
    explicit LoadProgressWidget(QWidget* parent = nullptr);

    void begin(const QString& path);
    void showStatus(const kscope::LoadStatus& status);
    QString text() const;

signals:
    void cancelRequested();

private:
    QProgressBar* m_bar;
    QLabel* m_label;
    QToolButton* m_cancel;
};

} // namespace kscope
