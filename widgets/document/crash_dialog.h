// SPDX-License-Identifier: Apache-2.0
// The crash report of an earlier session, offered at start-up with the recovery prompt: the
// report's text (read-only, selectable), Copy (to the clipboard, for an issue), Save As…, and
// Delete or Keep (offered again at the next start).
#pragma once

#include "document/crash_report.h"

#include <QDialog>

class QPlainTextEdit;

namespace tsw {

class CrashReportDialog : public QDialog {
    Q_OBJECT
public:
    CrashReportDialog(const crash::Report& report, QWidget* parent = nullptr);
    QString reportText() const;
    // The buttons' work, callable without the dialog's buttons (tests, scripts).
    void copyReport();
    bool saveReportAs(const QString& path, QString* error);
    bool deleteRequested() const { return delete_; }

private:
    crash::Report report_;
    QPlainTextEdit* text_;
    bool delete_ = false;
};

// Shows every pending report of `directory` in turn (modal); removes those the user deletes.
void offerCrashReports(QWidget* parent, const QString& directory);

} // namespace tsw
