#pragma once

#include <QMainWindow>

namespace kscope {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
};

} // namespace kscope
