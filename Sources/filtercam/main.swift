print("filtercam")
