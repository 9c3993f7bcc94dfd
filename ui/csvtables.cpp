#include "csvtables.h"

#include <QFile>

#include <sstream>

namespace kscope::csv {

bool write(const Table& table, const QString& path)
{
    std::ostringstream out;
    writeCsv(table, out);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const std::string text = out.str();
    return file.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size());
}

} // namespace kscope::csv
