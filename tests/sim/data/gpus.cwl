%ostrich-campaigns 1
# GPUs in the simulator (doc/semantics.md §20): 4 CPUs and 2 GPUs, three
# users, one campaign each, all released at 0, --dispatch strict (start
# in order, stop at the first job that does not fit).  With equal shares
# and every campaign starting at v = 0, OStrich ranks the campaigns by
# their area A = width x p, the width given by --charge:
#	job             cpu    dominant        billing CPU=1,GRES/gpu=4
#	u1: 1 CPU 2 GPU 1: 10  max(1, 2x4/2)=4: 40   1 + 8 = 9: 90
#	u2: 4 CPU       4: 24  4: 24             4: 24
#	u3: 4 CPU       4: 64  4: 64             4: 64
# so the order is u1 u2 u3 (cpu), u2 u1 u3 (dominant), u2 u3 u1
# (billing).  u1 holds 1 CPU, so no 4-CPU job runs beside it:
#	cpu       u1 0-10, u2 10-16, u3 16-32        (gpus-cpu.csv)
#	dominant  u2 0-6, u1 6-16, u3 16-32          (gpus-dominant.csv)
#	billing   u2 0-6, u3 6-22, u1 22-32          (gpus-billing.csv)
# Rounding (Slurm truncates billable TRES): CPU=1,GRES/gpu=2.6 gives
# 1 + 5.2 = 6.2 -> 6: 60 < 64, the dominant order (rounding up, 70,
# would give the billing one; gpus-billing-trunc.csv, width 6).
# MAX_TRES with CPU=1,GRES/gpu=3: max(1, 6) = 6: 60, the same schedule
# and width; summed, 7: 70, billing's schedule (gpus-billing-3.csv).
# u4's job asks for 3 GPUs, more than the machine: skipped.
procs 4
gpus 2
user 1 class gpu
user 2 class cpu
user 3 class cpu
campaign 1
job 1 10 gpus 2
campaign 2
job 4 6
campaign 3
job 4 16
campaign 4
job 1 5 gpus 3
