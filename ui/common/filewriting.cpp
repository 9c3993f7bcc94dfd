#include "common/filewriting.h"

#include "analysis/resulttable.h"

#include <QSaveFile>

#include <sstream>

namespace kscope {

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    QSaveFile file(path);
    const bool ok = file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit();
    if (!ok && error)
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
    return ok;
}

bool writeCsvFile(const Table& table, const QString& path, QString* error)
{
    std::ostringstream out;
    writeCsv(table, out);
    const std::string text = out.str();
    return writeFileAtomically(path, QByteArray(text.data(), static_cast<qsizetype>(text.size())), error);
}

} // namespace kscope
