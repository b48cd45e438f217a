import json, sys, statistics, collections
rows = collections.defaultdict(list)
for l in open(sys.argv[1]):
    d = json.loads(l)
    if 'mean_ms' not in d: continue
    key = (d['bits'], d['engine'], d['pga'], d.get('sieve'))
    rows[key].append(d['mean_ms'])
for bits in sorted({k[0] for k in rows}):
    ks = [k for k in rows if k[0] == bits]
    ossl = [statistics.median(rows[k]) for k in ks if k[1] == 'openssl']
    o = ossl[0] if ossl else None
    print(f"k={bits}  OpenSSL median-of-reps {o}")
    for k in sorted(ks, key=lambda k: statistics.median(rows[k])):
        m = statistics.median(rows[k])
        print(f"  {k[2]:>22} {str(k[3]):>15}  reps={len(rows[k])} median {m:8.1f} ms  all={[round(x,1) for x in rows[k]]}  /OpenSSL={m/o if o else float('nan'):.2f}")
