import CGStreamer
import FilterCore

/// Region-of-interest metas (`GstVideoRegionOfInterestMeta`: faces, objects from an
/// analyser upstream) carried through a turn, zoom or lens crop: each rectangle lands
/// where its pixels land (`GeometryPlan.mapRectToOutput`); one that leaves the picture
/// is dropped, as videoflip and videocrop do.
enum RegionOfInterest {
    static func map(from input: UnsafeMutablePointer<GstBuffer>, to output: UnsafeMutablePointer<GstBuffer>,
                    through plan: GeometryPlan) {
        var state: gpointer? = nil
        let api = gst_video_region_of_interest_meta_api_get_type()
        while let meta = gst_buffer_iterate_meta_filtered(input, &state, api) {
            let roi = UnsafeMutableRawPointer(meta).assumingMemoryBound(to: GstVideoRegionOfInterestMeta.self)
            let rect = PixelRect(x: Int(roi.pointee.x), y: Int(roi.pointee.y),
                                 width: Int(roi.pointee.w), height: Int(roi.pointee.h))
            guard let mapped = plan.mapRectToOutput(rect),
                  let copy = gst_buffer_add_video_region_of_interest_meta_id(
                    output, roi.pointee.roi_type, guint(mapped.x), guint(mapped.y), guint(mapped.width), guint(mapped.height))
            else { continue }
            copy.pointee.id = roi.pointee.id
            copy.pointee.parent_id = roi.pointee.parent_id
            var param = roi.pointee.params
            while let node = param {
                if let s = node.pointee.data {
                    gst_video_region_of_interest_meta_add_param(copy, gst_structure_copy(s.assumingMemoryBound(to: GstStructure.self)))
                }
                param = node.pointee.next
            }
        }
    }
}
