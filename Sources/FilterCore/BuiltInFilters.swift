/// The built-in catalog, in the order of the filter table.
enum BuiltInFilters {
    static var all: [FilterDescriptor] {
        [
            NoneFilter.descriptor,
            SepiaFilter.descriptor,
            MonoFilter.descriptor,
            NoirFilter.descriptor,
            InvertFilter.descriptor,
            PosterizeFilter.descriptor,
            VignetteFilter.descriptor,
            ExposureFilter.descriptor,
            ColorControlsFilter.descriptor,
            WhiteBalanceFilter.descriptor,
            ChannelMixFilter.descriptor,
            SharpenFilter.descriptor,
            BlurFilter.descriptor,
            EdgesFilter.descriptor,
            FocusPeakingFilter.descriptor,
            LookFilter.descriptor,
        ]
    }
}
