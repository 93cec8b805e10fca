// SPDX-License-Identifier: Apache-2.0
// Open Recent bookkeeping, free of widgets: one entry per file whatever path opened it (paths
// are made canonical: symlinks and "dir/../" resolved), newest first; menu labels are file names,
// with the folder added where two entries would otherwise read the same.
#pragma once

#include <QStringList>

namespace tsw {

// The canonical path of an existing file; a cleaned absolute path otherwise.
QString canonicalRecentPath(const QString& path);
// Puts `path` first, drops other spellings of the same file, keeps at most `max` entries.
QStringList addRecentPath(const QStringList& recent, const QString& path, int max);
// Canonicalises and removes duplicates (first occurrence wins), keeping order.
QStringList dedupeRecentPaths(const QStringList& recent);
// One label per path: "name", or "name — folder" (the parent's name, or its whole path when
// parents' names clash too) where names clash.
QStringList recentLabels(const QStringList& paths);

} // namespace tsw
