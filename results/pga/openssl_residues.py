import ctypes, ctypes.util, sys
lib = ctypes.CDLL(ctypes.util.find_library("crypto"))
lib.BN_new.restype = ctypes.c_void_p
lib.BN_generate_prime_ex.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
lib.BN_mod_word.argtypes = [ctypes.c_void_p, ctypes.c_ulong]; lib.BN_mod_word.restype = ctypes.c_ulong
N = int(sys.argv[1]); bits = int(sys.argv[2])
bn = lib.BN_new()
counts = {p: [0]*p for p in (3, 5, 7)}
for _ in range(N):
    assert lib.BN_generate_prime_ex(bn, bits, 0, None, None, None) == 1
    for p in counts: counts[p][lib.BN_mod_word(bn, p)] += 1
print({p: c[1:] for p, c in counts.items()})
