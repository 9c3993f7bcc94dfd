#include "mainwindow.h"

#include <QIcon>

namespace kscope {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Kinetoscope"));
    setWindowIcon(QIcon(QStringLiteral(":/kinetoscope/kinetoscope.svg")));
    resize(1280, 800);
}

} // namespace kscope
