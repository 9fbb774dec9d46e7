/// The built-in catalog, in the order of the filter table.
enum BuiltInFilters {
    static var all: [FilterDescriptor] {
        [NoneFilter.descriptor, SepiaFilter.descriptor]
    }
}
