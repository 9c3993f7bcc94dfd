#include "mainwindow.h"

#include <QApplication>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Kinetoscope"));
    QApplication::setOrganizationName(QStringLiteral("Kinetoscope"));
    kscope::MainWindow window;
    window.show();
    return QApplication::exec();
}
