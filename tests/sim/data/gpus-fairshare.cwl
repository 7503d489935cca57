%ostrich-campaigns 1
# The fairshare baseline charges the unit of --charge (doc/semantics.md
# §20).  4 CPUs, 2 GPUs, --half-life 0 (no decay), think time 0.  At 0
# no one has used anything: u1 then u2 (file order), both fit and run
# 0-10; both release their second campaign at 10 with usage
#	u1 (1 CPU + 2 GPU, 10 s): cpu 10, billing CPU=1,GRES/gpu=4: 90,
#	                          dominant max(1, 2x4/2) x 10 = 40
#	u2 (3 CPU, 10 s):         30 in every mode
# cpu: u1 first (10 < 30); its job holds a CPU, so u2's 4-CPU job waits
# (EASY reservation at 20): u1 10-20, u2 20-30 (gpus-fs-cpu.csv).
# billing, dominant: u2 first, u1 waits for a CPU: u2 10-20, u1 20-30
# (gpus-fs-billing.csv).
procs 4
gpus 2
user 1 class gpu
user 2 class cpu
campaign 1
job 1 10 gpus 2
campaign 2
job 3 10
campaign 1
job 1 10 gpus 2
campaign 2
job 4 10
