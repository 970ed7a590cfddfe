/// Progress of a long report: the fraction (0…1) of its work done.
///
/// Called on the report's thread.
package typealias ReportProgress = (_ fraction: Double) -> Void
