//! Tables: which are written as GitHub-flavoured tables, and how.
//!
//! A GFM table holds inline content only, one line a row. A table is written as one
//! when it has two cells or more and holds no table (a table in a cell cannot be
//! written in a cell) and no `pre` (a code block cannot either); other tables are laid
//! out as their text, a cell a paragraph. (`role=presentation` is not read: shops mark
//! their key-value tables so.) The first row is the header row (GFM has no table
//! without one); a caption is written before the table.
//! A cell spanning columns or rows is written out cell by cell: its text in its first
//! slot, the others empty, so that each row keeps its columns.

use htmltok_tree::{NodeRef, Tag};

use crate::walk;

/// The widest table written as a GFM table (HTML caps `colspan` at 1,000 too); a wider
/// one is written a line of text a row.
const MAX_COLUMNS: usize = 1000;

/// Whether `table` (a `table` element) is written as a GFM table (see the module's
/// doc). Reads the table's nodes up to the first nested table or `pre` at most: a
/// node is read by the scan of its nearest table only, so the scans of nested tables
/// stay linear in the page.
pub(crate) fn is_data_table(table: &NodeRef<'_>) -> bool {
    let mut cells = 0usize;
    let mut next = table.first_child();
    while let Some(node) = next {
        if let Some(name) = node.element_name()
            && name.ns == htmltok_tree::Ns::Html
        {
            match name.tag {
                Tag::Table | Tag::Pre | Tag::Listing | Tag::Xmp | Tag::Plaintext => return false,
                Tag::Td | Tag::Th => cells += 1,
                _ => {}
            }
        }
        next = walk::next(node, true, table);
    }
    cells >= 2
}

/// A cell read: its text (inline Markdown, one line) and its spans.
struct Cell {
    text: Vec<u8>,
    colspan: usize,
    rowspan: usize,
}

/// A GFM table being read, row by row.
#[derive(Default)]
pub(crate) struct Table {
    rows: Vec<Vec<Cell>>,
    /// Where the cell being read began in the output (its text is taken from there),
    /// and its spans.
    pub(crate) cell_start: Option<(usize, usize, usize)>,
}

impl Table {
    pub(crate) fn row(&mut self) {
        self.rows.push(Vec::new());
    }

    /// A cell begins at `position` of the output: its `colspan` and `rowspan` read.
    pub(crate) fn begin_cell(&mut self, node: &NodeRef<'_>, position: usize) {
        let span = |name: &str, default: usize, max: usize| {
            node.attr(name)
                .and_then(|v| v.trim().parse::<usize>().ok())
                .map_or(default, |n| n.clamp(1, max))
        };
        self.cell_start = Some((
            position,
            span("colspan", 1, 1000),
            span("rowspan", 1, 65534),
        ));
    }

    /// The cell that began ends, with its text.
    pub(crate) fn end_cell(&mut self, text: Vec<u8>, colspan: usize, rowspan: usize) {
        if self.rows.is_empty() {
            self.rows.push(Vec::new());
        }
        if let Some(row) = self.rows.last_mut() {
            row.push(Cell {
                text,
                colspan,
                rowspan,
            });
        }
    }

    /// The table's lines: the header row, the delimiter row, the body rows; none when
    /// no cell has text.
    pub(crate) fn lines(self) -> Vec<Vec<u8>> {
        if self.rows.iter().flatten().all(|c| c.text.is_empty()) {
            return Vec::new();
        }
        // A row wider than GFM tables are read at, or spans that would write far more
        // empty cells than the table has cells (a `colspan=1000` over many rows): each
        // row is a line of its cells' texts instead, so that no text is lost and the
        // output stays proportional to the page.
        let cells: usize = self.rows.iter().map(Vec::len).sum();
        let widest = self
            .rows
            .iter()
            .map(|r| r.iter().map(|c| c.colspan).sum::<usize>())
            .max()
            .unwrap_or(0);
        if widest > MAX_COLUMNS || self.rows.len().saturating_mul(widest) > 8 * cells + 4096 {
            return self
                .rows
                .iter()
                .map(|row| {
                    let mut line = Vec::new();
                    for cell in row.iter().filter(|c| !c.text.is_empty()) {
                        if !line.is_empty() {
                            line.push(b' ');
                        }
                        push_cell(&mut line, &cell.text);
                    }
                    line
                })
                .filter(|line| !line.is_empty())
                .collect();
        }
        let grid = self.grid();
        let columns = grid.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let mut lines = Vec::with_capacity(grid.len() + 1);
        for (i, row) in grid.iter().enumerate() {
            let mut line = Vec::new();
            for c in 0..columns {
                line.extend_from_slice(if c == 0 { b"| " } else { b" | " });
                if let Some(text) = row.get(c) {
                    push_cell(&mut line, text);
                }
            }
            line.extend_from_slice(b" |");
            lines.push(line);
            if i == 0 {
                let mut delimiter = Vec::new();
                for _ in 0..columns {
                    delimiter.extend_from_slice(b"| --- ");
                }
                delimiter.push(b'|');
                lines.push(delimiter);
            }
        }
        lines
    }

    /// The rows with the spanned slots filled by empty cells.
    fn grid(&self) -> Vec<Vec<&[u8]>> {
        // Rows still covered by a cell above, by column.
        let mut covered: Vec<usize> = Vec::new();
        let mut grid = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let mut out: Vec<&[u8]> = Vec::new();
            let mut column = 0;
            for cell in row {
                // The slots cells above cover.
                while covered.get(column).is_some_and(|&n| n > 0) {
                    covered[column] -= 1;
                    out.push(b"");
                    column += 1;
                }
                for k in 0..cell.colspan {
                    if column >= MAX_COLUMNS {
                        break;
                    }
                    out.push(if k == 0 { &cell.text } else { b"" });
                    if covered.len() <= column {
                        covered.resize(column + 1, 0);
                    }
                    covered[column] = cell.rowspan - 1;
                    column += 1;
                }
            }
            // Columns covered from above past the row's last cell.
            while column < covered.len() {
                if covered[column] > 0 {
                    covered[column] -= 1;
                }
                out.push(b"");
                column += 1;
            }
            grid.push(out);
        }
        grid
    }
}

/// Appends a cell's text: `|` escaped, line breaks as spaces, trimmed.
fn push_cell(line: &mut Vec<u8>, text: &[u8]) {
    let start = text.iter().position(|&b| b != b' ').unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&b| b != b' ')
        .map_or(start, |i| i + 1);
    for &b in &text[start..end] {
        match b {
            b'|' => line.extend_from_slice(b"\\|"),
            b'\n' | b'\r' => line.push(b' '),
            _ => line.push(b),
        }
    }
}
