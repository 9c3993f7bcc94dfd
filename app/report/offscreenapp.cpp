#include "report/offscreenapp.h"

#include <QDir>
#include <QFile>

#include <sys/stat.h>
#include <unistd.h>

namespace kscope::cli {

std::unique_ptr<QApplication> offscreenApplication()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // The offscreen platform uses no runtime dir, but Qt warns without one: a private one, owned
    // by us and 0700 as Qt demands.
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        const QByteArray dir = QFile::encodeName(QDir::tempPath()) + "/runtime-kinetoscope-" + QByteArray::number(::getuid());
        ::mkdir(dir.constData(), 0700);
        struct stat st {};
        if (::lstat(dir.constData(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() && (st.st_mode & 077) == 0)
            qputenv("XDG_RUNTIME_DIR", dir);
    }
    static int argc = 1;
    static char name[] = "kinetoscope-cli";
    static char* argv[] = {name, nullptr};
    auto app = std::make_unique<QApplication>(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Kinetoscope"));
    QApplication::setApplicationVersion(QStringLiteral(KSCOPE_VERSION));
    return app;
}

} // namespace kscope::cli
