import CPixelGather

/// A look's table (`LookTables`, built for the frame's matrix) over a YUV frame: eight chroma
/// sites per step through AVX2 gathers (`fc_look_sites420`, `fc_look_sites422`), a 4:2:0
/// frame two luma rows at a time; the sites an odd width or height leaves with fewer pixels
/// go through `LookSites`, whose arithmetic the gathers repeat, so the frame's samples are
/// the same as with `LookSites` everywhere. Rows go in bands to whichever core is free, as
/// on RGB frames (`TableLookKernel.lookUp`): a photo's lookups cost more in some rows than
/// in others.
struct TableLookSites {
    let entries: LookEntries
    let mix: LookMix

    /// Site rows per band: 16 rows of pixels, as on RGB frames.
    private static func bandRows(_ rows: ChromaSiteRows) -> Int { rows.isPacked ? 16 : 8 }

    func apply(to frame: YUVFrame) {
        let rows = ChromaSiteRows(frame)
        let edges = LookSites(source: TableYUVLook(entries: entries), mix: mix)
        let take = mix.take, keep = mix.keep
        // Sites with all their pixels in each row: the gathers' work, in eights.
        let whole = frame.width / 2, eights = whole & ~7
        let pixelsPerRow = rows.isPacked ? frame.width : 2 * frame.width
        RowSplitter.shared.run(rows: rows.count, columns: pixelsPerRow, bandsOf: Self.bandRows(rows)) { band in
            for row in band {
                let (top, bottom) = rows.lumaRows(row)
                if rows.isPacked {
                    fc_look_sites422(top, frame.format == .uyvy ? 1 : 0, Int32(eights), entries.bytes, take, keep)
                } else if let bottom {
                    let (u, v) = rows.chroma(row)
                    fc_look_sites420(top, bottom, u, v, rows.chromaStep == 2 ? 1 : 0, Int32(eights), entries.bytes, take, keep)
                } else {
                    rows.visit(row: row, from: 0, edges)   // the last row of an odd height: one pixel row
                    continue
                }
                rows.visit(row: row, from: eights, edges)
            }
        }
    }
}
