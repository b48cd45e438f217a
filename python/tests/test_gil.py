"""The GIL is released while the Rust core works: another Python thread keeps running."""

import threading
import time

import primekit

# A 2203-bit Mersenne prime: > 2048 bits, so the test runs 128 Miller-Rabin rounds.
BIG_PRIME = 2**2203 - 1


def largest_pause_of_main_thread(work):
    """Run `work` in a thread; return the longest gap between two main-thread ticks."""
    worker = threading.Thread(target=work)
    last = time.perf_counter()
    worst = 0.0
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        worst = max(worst, now - last)
        last = now
    worker.join()
    return worst


def test_is_prime_releases_the_gil():
    start = time.perf_counter()
    assert primekit.is_prime(BIG_PRIME)
    one_call = time.perf_counter() - start
    assert one_call > 0.05, "input too small to observe the GIL"
    # Holding the GIL would stall the main thread for a whole call.
    assert largest_pause_of_main_thread(lambda: primekit.is_prime(BIG_PRIME)) < one_call / 2
