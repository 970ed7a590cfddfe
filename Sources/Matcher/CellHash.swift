/// The mixed 64-bit hash of a search cell: a cell number under one speed hypothesis, on one of two grids. The vote
/// table (`VoteTable`) and the agreement table (`TargetAgreement`) place their cells with it.
@inline(__always)
func cellHash(cell: UInt64, hypothesis: Int, grid: UInt64) -> UInt64 {
  ((cell &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(hypothesis) &* 0xC2B2_AE3D_27D4_EB4F) ^ grid) &* 0xD6E8_FEB8_6659_FD93
}
