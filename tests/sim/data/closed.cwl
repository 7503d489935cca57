%ostrich-campaigns 1
# m = 2, think 5 s.  User 1: campaign 1 (two 10 s jobs), then campaign 2
# (one 2-CPU job) released 5 s after campaign 1 completes.  User 2: one
# 3 s job at t = 0.  fcfs: u1c1 0-10, u2 10-13, u1c2 15-19.  ostrich:
# u2 (F = 3) first: 0-3, u1 jobs 0-10 and 3-13, u1c2 18-22.
procs 2
think 5
campaign 1
job 1 10
job 1 10
campaign 1
job 2 4
campaign 2
job 1 3
