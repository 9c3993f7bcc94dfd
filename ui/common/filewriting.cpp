#include "common/filewriting.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include "analysis/resulttable.h"

#include "model/atomicfile.h"

#include <QBuffer>

#include <mutex>
#include <sstream>

namespace kscope {

namespace {

std::mutex& protectedMutex()
{
    static std::mutex mutex;
    return mutex;
}

std::vector<std::filesystem::path>& protectedFiles()
{
    static std::vector<std::filesystem::path> files;
    return files;
}

} // namespace

void setFilesNotToOverwrite(std::vector<std::filesystem::path> files)
{
    const std::lock_guard lock(protectedMutex());
    protectedFiles() = std::move(files);
}

QString overwriteRefusal(const QString& path)
{
    const std::lock_guard lock(protectedMutex());
    const std::string reason = inputOverwriteError(std::filesystem::path(path.toStdString()), protectedFiles());
    return QString::fromStdString(reason);
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    QString reason = overwriteRefusal(path);
    // The engine's writer, as the CLI's --output uses it: temporary file, fsync, rename.
    if (reason.isEmpty())
        reason = QString::fromStdString(writeFileAtomically(std::filesystem::path(path.toStdString()),
                                                            std::string_view(bytes.constData(), size_t(bytes.size()))));
    if (!reason.isEmpty() && error)
        *error = QStringLiteral("%1: %2").arg(path, reason);
    return reason.isEmpty();
}

bool writePngFile(const QImage& image, const QString& path, QString* error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG")) {
        if (error)
            *error = QStringLiteral("%1: cannot encode the picture as PNG").arg(path);
        return false;
    }
    return writeFileAtomically(path, bytes, error);
}

bool writeCsvFile(const Table& table, const QString& path, QString* error)
{
    std::ostringstream out;
    writeCsv(table, out);
    const std::string text = out.str();
    return writeFileAtomically(path, QByteArray(text.data(), static_cast<qsizetype>(text.size())), error);
}

namespace {
const QString kLastExportFolder = QStringLiteral("export/lastFolder");
} // namespace

QString exportSuggestion(const QString& fileName)
{
    const QString folder = QSettings().value(kLastExportFolder).toString();
    return folder.isEmpty() || !QFileInfo(folder).isDir() ? fileName : QDir(folder).filePath(fileName);
}

void rememberExport(const QString& path)
{
    const QFileInfo info(path);
    QSettings().setValue(kLastExportFolder, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

} // namespace kscope
