#include "shell/loadprogresswidget.h"

#include "shell/loadcontroller.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace kscope {

LoadProgressWidget::LoadProgressWidget(QWidget* parent)
    : QWidget(parent), m_bar(new QProgressBar(this)), m_label(new QLabel(this)), m_cancel(new QToolButton(this))
{
    m_bar->setRange(0, 1000);
    m_bar->setFixedWidth(180);
    m_bar->setTextVisible(false);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop loading; the previous run stays on screen"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &LoadProgressWidget::cancelRequested);
}

void LoadProgressWidget::begin(const QString& path)
{
    m_bar->setValue(0);
    m_label->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
}

void LoadProgressWidget::showStatus(const LoadStatus& s)
{
    const double fraction = s.bytesTotal ? double(s.bytesDone) / double(s.bytesTotal) : 0.0;
    m_bar->setValue(static_cast<int>(fraction * 1000));
    QString text = tr("Ranks %1/%2 · %3/%4 MB")
                       .arg(s.filesDone)
                       .arg(s.filesTotal)
                       .arg(s.bytesDone / 1e6, 0, 'f', 1)
                       .arg(s.bytesTotal / 1e6, 0, 'f', 1);
    if (s.etaSeconds >= 0)
        text += tr(" · ETA %1 s").arg(s.etaSeconds, 0, 'f', s.etaSeconds < 10 ? 1 : 0);
    m_label->setText(text);
}

QString LoadProgressWidget::text() const { return m_label->text(); }

} // namespace kscope
