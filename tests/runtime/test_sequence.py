from services.runtime.sequence import SequenceGuard, Verdict


def test_next_applies_replay_is_duplicate_and_jump_is_gap():
    guard = SequenceGuard()
    assert guard.check("T1", 1) is Verdict.APPLY
    guard.advance("T1", 1)
    assert guard.check("T1", 1) is Verdict.DUPLICATE
    assert guard.check("T1", 2) is Verdict.APPLY
    assert guard.check("T1", 4) is Verdict.GAP
    assert guard.check("T2", 1) is Verdict.APPLY  # aggregates are independent
    assert guard.expected("T1") == 2
