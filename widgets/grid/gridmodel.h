// SPDX-License-Identifier: Apache-2.0
// GridModel: what the grid shows, computed once from core tables (no Qt widgets, no painting).
//
// A model is a rows x cols grid of cells, each with a base colour, one or two label lines, a
// filled flag and details for the tooltip. Fragments show `T<thread>[/<thread>...]` and
// `L<slot>` as TileLang's plot_layout does; a Layout's input view labels each logical cell with
// its flattened output index, its output view labels each physical cell with the source
// coordinates. A fragment's output view is its register file: one row per thread, one column
// per local slot, each cell labelled with the logical coordinate that register holds. Ranks other
// than 2 are flattened as plot_layout does: rank 1 -> (1, n), rank N ->
// (prod(shape[:-1]), shape[-1]). Models share their data, so copies are cheap and may cross
// threads (they are immutable once built, except for the diff marks set by their owner).
#pragma once

#include "tilescope/layout/layout.h"

#include "grid/grid_colors.h"

#include <QString>
#include <QStringList>
#include <QtGui/qrgb.h>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace tsw {

enum class ViewMode { Input, Output };
enum class ColorMode { Thread, Warp, Slot, Replica };

ViewMode viewModeFromString(const std::string& s);
ColorMode colorModeFromString(const std::string& s);
std::string viewModeName(ViewMode v);
std::string colorModeName(ColorMode c);

// Grids with more cells than this are refused with a clear message (the core still evaluates).
inline constexpr std::int64_t kMaxDrawCells = std::int64_t{1} << 24; // 4096 x 4096

// Cells the user asked to emphasise (click on a cell: its thread; shift-click: its slot).
struct Highlight {
    // Collisions: every cell whose element shares a register with another (value unused).
    enum Kind { None, Thread, Slot, Value, Collisions } kind = None;
    std::int64_t value = -1;
    bool operator==(const Highlight&) const = default;
    bool active() const { return kind != None; }
};

struct LegendEntry {
    Argb color = kTransparent; // kTransparent: a line without a swatch
    QString text;
    // Says what the cell labels are ("label: bank"): listed only where labels are drawn.
    bool aboutLabels = false;

    LegendEntry() = default;
    LegendEntry(Argb c, QString t, bool about = false)
        : color(c), text(std::move(t)), aboutLabels(about) {}
    // From a QColor (widgets), without this header needing Qt's GUI library.
    template <class Color, class = decltype(std::declval<const Color&>().rgba())>
    LegendEntry(const Color& c, QString t, bool about = false)
        : LegendEntry(Argb(c.rgba()), std::move(t), about) {}
};

// Everything the tooltip and the details pane say about one cell.
struct CellInfo {
    bool valid = false;
    int row = 0, col = 0;
    QString logical;  // "(3, 7)" or "—" for an unfilled output cell
    QString threads;  // "12, 44" (fragments)
    QString slot;     // "5" or "(1, 2)" (fragments)
    QString physical; // "(0, 3, 17)" / flat offset (layouts)
    QString label;    // the label text as painted, lines joined by a space
    QString toToolTip() const;
};

class GridModel {
public:
    enum class Kind { Empty, Fragment, FragmentOutput, LayoutInput, LayoutOutput };

    GridModel() = default;
    // Throws ts::InputError when the grid would exceed kMaxDrawCells.
    static GridModel fromMapping(const ts::Mapping& m, ViewMode view, ColorMode color);
    static GridModel fromFragment(ts::FragmentTable t, ColorMode color,
                                  ViewMode view = ViewMode::Input);
    // `checkInjective`: warn when two cells share an offset (a T.Layout); off for tables of
    // other values shown the same way (banks, block indices), where sharing is the point.
    static GridModel fromLayout(ts::LayoutTable t, ViewMode view, bool checkInjective = true);

    Kind kind() const;
    bool isEmpty() const { return rows() == 0 || cols() == 0; }
    int rows() const;
    int cols() const;
    std::int64_t cellCount() const { return std::int64_t(rows()) * cols(); }
    QString title() const;    // "Fragment [32x32] -> 128 threads x 8 slots (input view)"
    QString subtitle() const; // colour mode description
    ColorMode colorMode() const;
    ViewMode viewMode() const;

    bool filled(int r, int c) const;
    QRgb color(int r, int c) const;
    const QRgb* colorData() const; // row-major, rows() * cols(); null when empty
    int labelLines() const;        // 1 or 2
    QString label(int r, int c, int line) const;
    int maxLabelChars(int line) const; // the longest label of that line (for font sizing)
    // A shorter first line for cells too small for the full one: replicated fragments list
    // every thread in full ("T0/32/64/96") and compactly ("T0 ×4"); empty when there is none.
    QString compactLabel(int r, int c) const;
    int maxCompactChars() const; // 0 when there are no compact labels
    QString rowHeader(int r) const { return QString::number(r); }
    QString colHeader(int c) const { return QString::number(c); }
    CellInfo info(int r, int c) const;

    // Highlight matching: what clicking a cell selects, and whether a cell belongs to it.
    Highlight highlightFor(int r, int c, bool slot) const;
    bool matches(int r, int c, const Highlight& h) const;
    QString describe(const Highlight& h) const;

    const std::vector<LegendEntry>& legend() const;

    // Elements that share a (thread, local) register with another (fragments; 0 otherwise), and
    // a one-line warning naming the first two, empty when there are none.
    std::int64_t slotCollisions() const;
    // Cells of a T.Layout that share their offset with another cell (0 for an injective layout
    // or a fragment); collisionWarning() then names the first two.
    std::int64_t aliasedCells() const;
    QString collisionWarning() const;
    // What TileLang would do with the mapping that the cells do not show (ts::mappingNotes),
    // as one line for the grid's banner; empty when there is nothing to say. Part of the model,
    // so it is always about the mapping drawn.
    QString notesLine() const;

    // Overview support (grid_overview.h): cells fall into groups whose colour summarises a
    // block too small to show its cells: a fragment's warps when colouring by thread or warp.
    bool hasGroups() const;
    std::int64_t group(int r, int c) const; // -1 without groups
    // Every cell's group at once, read from the table: the group of row-major cell i is
    // values[i * stride] / divisor; values is null without groups.
    struct GroupSource {
        const std::int64_t* values = nullptr;
        std::int64_t stride = 1, divisor = 1;
    };
    GroupSource groupSource() const;
    static QRgb groupColor(std::int64_t g);
    QString groupName() const; // "warp"
    std::int64_t groupCount() const;
    // Colours on a continuous ramp (offsets, many slots): a block's mean is meaningful.
    bool continuousColors() const;

    // Per-cell diff marks for comparison views (0 = none); owned by whoever compares two models.
    void setMarks(std::vector<std::uint8_t> marks);
    // What the axes are, when the notation says something the shape alone does not (a CuTe
    // layout's axes are its top-level modes, split colexicographically): shown in the subtitle.
    void setAxisNote(const QString& note) { axisNote_ = note; }
    QString axisNote() const { return axisNote_; }
    static QString axisNoteFor(const std::string& mappingText);
    std::uint8_t mark(int r, int c) const;
    bool hasMarks() const;

    // Plain-text table (tab separated labels, with row/column headers).
    QString toTextTable() const;

    // The core table the model was built from, in either view (null for the other kind or an
    // empty model).
    const ts::FragmentTable* fragmentTable() const;
    const ts::LayoutTable* layoutTable() const;

    struct Data; // implementation detail, shared between copies
private:
    std::shared_ptr<const Data> d_;
    std::shared_ptr<const std::vector<std::uint8_t>> marks_;
    QStringList notes_;
    QString axisNote_;
};

// Whether the colour modes (thread, warp, slot, replica) change what a grid of this kind shows:
// only a fragment's input view is coloured by them.
bool colorModesApply(GridModel::Kind k);

// Unused registers and offsets (QColor::fromRgbF(0.95, 0.95, 0.95) as it was).
inline constexpr Argb kUnusedGrey = 0xfff2f2f2;

} // namespace tsw
