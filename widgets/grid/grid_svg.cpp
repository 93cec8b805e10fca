// SPDX-License-Identifier: Apache-2.0
// Compact SVG for a grid's cells (see grid_svg.h).
#include "grid/grid_svg.h"

#include "grid/gridrenderer.h"

#include <charconv>
#include <cmath>
#include <map>
#include <string>

namespace tsw {

namespace {

// Appends v with at most two decimals, trailing zeros dropped ("12", "12.5", "-0.25").
void num(std::string& s, double v) {
    const long long h = std::llround(v * 100);
    if (h < 0) s += '-';
    const unsigned long long a = static_cast<unsigned long long>(h < 0 ? -h : h);
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, a / 100);
    s.append(buf, r.ptr);
    if (const unsigned long long frac = a % 100) {
        s += '.';
        s += char('0' + frac / 10);
        if (frac % 10) s += char('0' + frac % 10);
    }
}

std::string hex(QRgb c) {
    char buf[8];
    static const char* d = "0123456789abcdef";
    buf[0] = '#';
    const int v[3] = {qRed(c), qGreen(c), qBlue(c)};
    for (int k = 0; k < 3; ++k) {
        buf[1 + 2 * k] = d[v[k] >> 4];
        buf[2 + 2 * k] = d[v[k] & 15];
    }
    return std::string(buf, 7);
}

void escape(std::string& s, const QString& text) {
    for (char c : text.toStdString()) {
        switch (c) {
        case '<':
            s += "&lt;";
            break;
        case '>':
            s += "&gt;";
            break;
        case '&':
            s += "&amp;";
            break;
        default:
            s += c;
        }
    }
}

} // namespace

QByteArray gridCellsSvg(const GridRenderer& r, double scale) {
    const GridModel& m = r.model();
    if (m.isEmpty()) return {};
    const QRectF g = r.gridRect();
    const double cellPx = r.style().cell * scale;
    const double gap = cellPx >= 10 ? 1.0 : 0.0;
    const double x0 = g.left() * scale, y0 = g.top() * scale;
    const int rows = m.rows(), cols = m.cols();
    std::string out;
    out.reserve(std::size_t(rows) * std::size_t(cols) * 40 + 4096);
    out += "<g>\n";
    // The white page first (QPainter's background is left out so it cannot cover the cells).
    const QSizeF page = r.sceneSize() * scale;
    out += "<rect width=\"";
    num(out, page.width());
    out += "\" height=\"";
    num(out, page.height());
    out += "\" fill=\"#fff\"/>\n";

    // Fills: per colour, horizontal runs of that colour as one rectangle each.
    std::map<QRgb, std::string> paths;
    for (int row = 0; row < rows; ++row)
        for (int c = 0; c < cols;) {
            const QRgb col = r.effectiveColor(row, c);
            int e = c + 1;
            while (e < cols && r.effectiveColor(row, e) == col)
                ++e;
            std::string& d = paths[col & 0xffffff];
            d += 'M';
            num(d, x0 + c * cellPx);
            d += ' ';
            num(d, y0 + row * cellPx);
            d += 'h';
            num(d, (e - c) * cellPx);
            d += 'v';
            num(d, cellPx);
            d += 'h';
            num(d, -(e - c) * cellPx);
            d += 'z';
            c = e;
        }
    for (const auto& [col, d] : paths) {
        out += "<path fill=\"" + hex(col) + "\" d=\"";
        out += d;
        out += "\"/>\n";
    }
    // The gaps between cells: white lines along each cell's right and bottom edge.
    if (gap > 0) {
        std::string d;
        const double w = cols * cellPx, h = rows * cellPx;
        for (int c = 1; c <= cols; ++c) {
            d += 'M';
            num(d, x0 + c * cellPx - gap / 2);
            d += ' ';
            num(d, y0);
            d += 'v';
            num(d, h);
        }
        for (int row = 1; row <= rows; ++row) {
            d += 'M';
            num(d, x0);
            d += ' ';
            num(d, y0 + row * cellPx - gap / 2);
            d += 'h';
            num(d, w);
        }
        out += "<path fill=\"none\" stroke=\"#fff\" stroke-width=\"";
        num(out, gap);
        out += "\" d=\"" + d + "\"/>\n";
    }

    // Labels, as paintCells draws them: only where legible.
    double f[2];
    bool compact = false;
    r.labelFonts(scale, f, &compact);
    const int lines = m.labelLines();
    const Highlight& hl = r.highlight();
    const std::string dark = "#1d2127";
    if (f[0] >= r.style().minLabelPx) {
        const QString family = r.style().fontFamily.isEmpty()
                                   ? QStringLiteral("DejaVu Sans, Verdana, sans-serif")
                                   : r.style().fontFamily;
        out += "<g font-family=\"";
        escape(out, family);
        out += "\" text-anchor=\"middle\" fill=\"" + dark + "\">\n";
        for (int line = 0; line < lines; ++line) {
            if (line == 1 && f[1] < r.style().minLabelPx) break;
            // Centre of the line's box, as paintCells lays it out; the baseline sits about
            // 0.35 em below the centre for digits and capitals.
            const double box = cellPx - gap;
            const double centre =
                lines == 2 ? (line == 0 ? box * (0.10 + 0.21) : box * 0.70) : box / 2;
            out += "<g font-size=\"";
            num(out, f[line]);
            out += "\">\n";
            for (int row = 0; row < rows; ++row) {
                out += "<g transform=\"translate(0 ";
                num(out, y0 + row * cellPx + centre + f[line] * 0.35);
                out += ")\">";
                for (int c = 0; c < cols; ++c) {
                    if (!m.filled(row, c)) continue;
                    const QRgb col = r.effectiveColor(row, c);
                    out += "<text x=\"";
                    num(out, x0 + c * cellPx + box / 2);
                    out += '"';
                    if (hl.active() && !m.matches(row, c, hl))
                        out += " fill-opacity=\".43\"";
                    else if (isDark(col))
                        out += " fill=\"#fff\"";
                    out += '>';
                    escape(out,
                           line == 0 && compact ? m.compactLabel(row, c) : m.label(row, c, line));
                    out += "</text>";
                }
                out += "</g>\n";
            }
            out += "</g>\n";
        }
        out += "</g>\n";
    }
    // Highlighted cells get an outline, as on screen.
    if (hl.active() && cellPx >= 4) {
        std::string d;
        const double inset = 0.5;
        for (int row = 0; row < rows; ++row)
            for (int c = 0; c < cols; ++c) {
                if (!m.matches(row, c, hl)) continue;
                d += 'M';
                num(d, x0 + c * cellPx + inset);
                d += ' ';
                num(d, y0 + row * cellPx + inset);
                d += 'h';
                num(d, cellPx - gap - 2 * inset);
                d += 'v';
                num(d, cellPx - gap - 2 * inset);
                d += 'h';
                num(d, -(cellPx - gap - 2 * inset));
                d += 'z';
            }
        out += "<path fill=\"none\" stroke=\"" + dark + "\" stroke-width=\"";
        num(out, std::max(1.0, std::min(2.5, cellPx / 16)));
        out += "\" d=\"" + d + "\"/>\n";
    }
    out += "</g>\n";
    return QByteArray(out.data(), qsizetype(out.size()));
}

} // namespace tsw
