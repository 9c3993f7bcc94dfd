#include "common/filewriting.h"

#include "analysis/resulttable.h"

#include "model/atomicfile.h"

#include <sstream>

namespace kscope {

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    // The engine's writer, as the CLI's --output uses it: temporary file, fsync, rename.
    const std::string reason = writeFileAtomically(std::filesystem::path(path.toStdString()),
                                                   std::string_view(bytes.constData(), size_t(bytes.size())));
    if (!reason.empty() && error)
        *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(reason));
    return reason.empty();
}

bool writeCsvFile(const Table& table, const QString& path, QString* error)
{
    std::ostringstream out;
    writeCsv(table, out);
    const std::string text = out.str();
    return writeFileAtomically(path, QByteArray(text.data(), static_cast<qsizetype>(text.size())), error);
}

} // namespace kscope
