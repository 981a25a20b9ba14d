// SPDX-License-Identifier: AGPL-3.0-or-later
#include <QApplication>
#include <QMainWindow>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QMainWindow window;
    window.setWindowTitle(QObject::tr("PEPSI dispatcher console"));
    window.show();
    return app.exec();
}
